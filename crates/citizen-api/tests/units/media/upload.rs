//! Type detection, refusals, and that a failed upload leaves nothing in the folder.

use super::images::{self, ExifPlacement};
use super::*;

#[tokio::test]
async fn each_type_is_recognised_by_its_bytes_not_by_the_clients_type_or_name() {
    let server = serve();
    let heif = {
        let (mut file, _) = images::heic(ExifPlacement::Mdat);
        file[8..12].copy_from_slice(b"mif1");
        file
    };
    // The type is the bytes', and so is the extension of the stored name.
    let cases: Vec<(&str, Vec<u8>, &str, &str)> = vec![
        ("a.gif", images::jpeg().0, "image/jpeg", "a.jpg"),
        ("b.jpg", images::png().0, "image/png", "b.png"),
        ("c.png", images::webp().0, "image/webp", "c.webp"),
        (
            "d",
            images::heic(ExifPlacement::Mdat).0,
            "image/heic",
            "d.heic",
        ),
        ("e.heic", heif, "image/heif", "e.heic"),
        (
            "f.txt",
            b"%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n".to_vec(),
            "application/pdf",
            "f.pdf",
        ),
    ];
    for (filename, bytes, mime, kept) in cases {
        let media = stored(post(&server, Body::new().file(filename, &bytes), 4096).await).await;
        assert_eq!(media.len(), 1);
        let m = &media[0];
        assert_eq!(m["media_type"], mime, "{filename}");
        assert_eq!(m["filename"], kept);
        let id = m["media_id"].as_str().unwrap();
        assert_eq!(
            m["public_url"],
            format!("http://media.test/api/v1/media/{id}")
        );
        let on_disk = on_disk(&server, id);
        assert_eq!(m["size"], on_disk.len() as u64);
    }
    assert_eq!(files_in(&server.dir).len(), 6);
}

#[tokio::test]
async fn unknown_types_are_refused_naming_the_accepted_ones() {
    let server = serve();
    for bytes in [
        &b"GIF89a\x01\x00\x01\x00\x00\x00\x00;"[..],
        b"<svg xmlns='http://www.w3.org/2000/svg'/>",
        b"\x00\x00\x00\x18ftypavif\x00\x00\x00\x00",
        b"RIFF\x04\x00\x00\x00WAVE",
        b"\xff\xd8",
    ] {
        let body = error(
            post(&server, Body::new().file("x.jpg", bytes), 4096).await,
            400,
        )
        .await;
        assert_eq!(body.name, "VALIDATION_ERROR");
        assert!(
            body.userinfo.contains("JPEG, PNG, WebP, HEIC, HEIF, PDF"),
            "{}",
            body.userinfo
        );
    }
    assert_eq!(files_in(&server.dir), Vec::<String>::new());
}

#[tokio::test]
async fn an_empty_part_is_no_media() {
    let server = serve();
    let body = Body::new().text("title", "t").file("empty.jpg", b"");
    let err = error(post(&server, body, 4096).await, 400).await;
    assert_eq!(err.name, "NO_MEDIA");
    assert_eq!(err.userinfo, "a file in the form is empty");
    assert_eq!(files_in(&server.dir), Vec::<String>::new());
}

#[tokio::test]
async fn a_truncated_photo_is_no_media_and_leaves_no_partial_file() {
    let server = serve();
    let (jpeg, clean_jpeg) = images::jpeg();
    let (_, clean_png) = images::png();
    let cut_jpeg = &clean_jpeg[..clean_jpeg.len() - 2]; // no end-of-image marker
    let cut_png = &clean_png[..clean_png.len() - 5]; // IEND cut short
    for (bytes, label) in [(cut_jpeg, "JPEG"), (cut_png, "PNG")] {
        // A good file first: it must be removed too.
        let body = Body::new().file("ok.jpg", &jpeg).file("cut.jpg", bytes);
        let err = error(post(&server, body, 512).await, 400).await;
        assert_eq!(err.name, "NO_MEDIA");
        assert_eq!(
            err.userinfo,
            format!("the {label} file is damaged or incomplete")
        );
        assert_eq!(files_in(&server.dir), Vec::<String>::new(), "{label}");
    }
}

#[tokio::test]
async fn a_body_that_breaks_off_inside_a_file_is_no_media_and_leaves_nothing() {
    let server = serve();
    let (jpeg, _) = images::jpeg();
    let mut bytes = Body::new().file("ok.jpg", &jpeg).unfinished();
    let cut = Body::new().file("cut.jpg", &jpeg).unfinished();
    bytes.extend_from_slice(&cut[..cut.len() - 100]);
    let err = error(post_raw(&server, bytes, 256).await, 400).await;
    assert_eq!(err.name, "NO_MEDIA");
    assert_eq!(
        err.userinfo,
        "a file in the form could not be read to its end"
    );
    assert_eq!(files_in(&server.dir), Vec::<String>::new());
}

#[tokio::test]
async fn a_file_over_the_limit_midway_leaves_nothing_behind() {
    let server = serve();
    let (jpeg, _) = images::jpeg();
    // A JPEG of 64 KiB + 1: its first 64 KiB are already streaming into the store when the
    // reader refuses it.
    let mut big = images::jpeg().1;
    big.truncate(big.len() - 2);
    big.resize((64 << 10) + 1, 0x55);
    let body = Body::new().file("ok.jpg", &jpeg).file("big.jpg", &big);
    let err = error(post(&server, body, 8192).await, 413).await;
    assert_eq!(err.name, "PAYLOAD_TOO_LARGE");
    assert_eq!(files_in(&server.dir), Vec::<String>::new());
}

#[tokio::test]
async fn files_over_the_total_are_refused_and_removed() {
    let server = serve();
    let mut photo = images::jpeg().1;
    let eoi = photo.split_off(photo.len() - 2);
    photo.resize(60 << 10, 0x42);
    photo.extend_from_slice(&eoi);
    let body = Body::new()
        .file("1.jpg", &photo)
        .file("2.jpg", &photo)
        .file("3.jpg", &photo);
    let err = error(post(&server, body, 16 << 10).await, 400).await;
    assert_eq!(err.name, "TOTAL_MEDIA_SIZE_TOO_LARGE");
    assert_eq!(files_in(&server.dir), Vec::<String>::new());
    // Two of them fit.
    let body = Body::new().file("1.jpg", &photo).file("2.jpg", &photo);
    assert_eq!(stored(post(&server, body, 16 << 10).await).await.len(), 2);
}

#[tokio::test]
async fn an_heif_whose_exif_cannot_be_overwritten_is_refused() {
    let server = serve();
    let (file, _) = images::heic(ExifPlacement::FromItem);
    let err = error(
        post(&server, Body::new().file("x.heic", &file), 4096).await,
        400,
    )
    .await;
    assert_eq!(err.name, "VALIDATION_ERROR");
    assert!(err.userinfo.contains("HEIC"), "{}", err.userinfo);
    assert_eq!(files_in(&server.dir), Vec::<String>::new());
}

#[tokio::test]
async fn client_file_names_are_sanitised() {
    let server = serve();
    let (jpeg, _) = images::jpeg();
    let body = Body::new()
        .file("../../evil/x<y>|.jpg", &jpeg)
        .file("", &jpeg);
    let media = stored(post(&server, body, 4096).await).await;
    assert_eq!(media[0]["filename"], "xy.jpg");
    assert_eq!(media[1]["filename"], "attachment.jpg");
}

#[tokio::test]
async fn delete_removes_the_file_and_a_missing_one_counts_as_removed() {
    let server = serve();
    let (jpeg, _) = images::jpeg();
    let media = stored(
        post(
            &server,
            Body::new().file("a.jpg", &jpeg).file("b.jpg", &jpeg),
            4096,
        )
        .await,
    )
    .await;
    let ids: Vec<uuid::Uuid> = media
        .iter()
        .map(|m| m["media_id"].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(files_in(&server.dir).len(), 2);
    server.store.delete(ids[0]).await.unwrap();
    assert_eq!(files_in(&server.dir), vec![ids[1].to_string()]);
    server.store.delete(ids[0]).await.unwrap();
    assert!(server.store.open(ids[0]).await.unwrap().is_none());
    server.store.discard(&ids).await;
    assert_eq!(files_in(&server.dir), Vec::<String>::new());
}

#[test]
fn settings_are_validated_and_s3_is_configured_without_a_network() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = settings(tmp.path());
    s.max_total_bytes = s.max_file_bytes - 1;
    assert!(MediaStore::new(&s)
        .unwrap_err()
        .to_string()
        .contains("media.max_total_bytes"));
    let mut s = settings(tmp.path());
    s.store_url = Some("gs://bucket".into());
    assert!(MediaStore::new(&s)
        .unwrap_err()
        .to_string()
        .contains("media.store_url"));
    let mut s = settings(tmp.path());
    s.store_url = Some("s3://reports/media".into());
    s.s3_endpoint = Some("http://127.0.0.1:9".into());
    s.s3_region = Some("us-east-1".into());
    s.s3_access_key_id = Some("key".into());
    s.s3_secret_access_key = Some("secret".to_owned().into());
    s.s3_allow_http = true;
    let store = MediaStore::new(&s).unwrap();
    let id = uuid::Uuid::new_v4();
    assert_eq!(
        store.public_url(id),
        format!("http://media.test/api/v1/media/{id}")
    );
    assert!(
        format!("{store:?}").contains("prefix: \"media\""),
        "{store:?}"
    );
    assert!(
        !format!("{s:?}").contains("secret\""),
        "secret shown: {s:?}"
    );
}

#[test]
fn settings_deserialize_with_defaults_and_refuse_unknown_keys() {
    let s: MediaSettings = serde_json::from_value(json!({ "dir": "/srv/media" })).unwrap();
    assert_eq!(s.max_file_bytes, 10 << 20);
    assert_eq!(s.max_files, 5);
    assert_eq!(s.max_total_bytes, 25 << 20);
    assert_eq!(s.store_url, None);
    let err = serde_json::from_value::<MediaSettings>(json!({ "max_file_byte": 1 })).unwrap_err();
    assert!(err.to_string().contains("max_file_byte"), "{err}");
}

#[tokio::test]
async fn a_failing_store_is_503_and_shows_no_internals() {
    let server = serve();
    // The folder is replaced by a file: nothing can be written below it.
    std::fs::remove_dir_all(&server.dir).unwrap();
    std::fs::write(&server.dir, b"not a folder").unwrap();
    let (jpeg, _) = images::jpeg();
    let err = error(
        post(&server, Body::new().file("a.jpg", &jpeg), 4096).await,
        503,
    )
    .await;
    assert_eq!(err.name, "SERVICE_UNAVAILABLE");
    let dir = server.dir.display().to_string();
    assert!(!err.userinfo.contains(&dir), "{}", err.userinfo);
}
