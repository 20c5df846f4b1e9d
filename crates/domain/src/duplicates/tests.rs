use super::*;

#[test]
fn similarity_of_worded_alike_texts() {
    for (a, b, expected) in [
        // Same words, other case, diacritics and punctuation.
        ("Díra v silnici, Žitná", "díra silnici – ŽITNÁ!", 1.0),
        // Short words ("v", "na", "12") do not count.
        ("Díra v silnici na Žitné 12", "díra silnici žitné", 1.0),
        // 2 common of 4 words.
        ("broken street lamp", "broken lamp again", 0.5),
        ("broken street lamp", "overflowing bin", 0.0),
        // No word at all on one side.
        ("a b c", "broken lamp", 0.0),
        ("", "", 0.0),
        // Repeated words count once.
        ("lamp lamp lamp", "lamp", 1.0),
    ] {
        let got = similarity(a, b);
        assert!((got - expected).abs() < 1e-9, "{a:?} / {b:?}: {got}");
        assert!((similarity(b, a) - got).abs() < 1e-9, "symmetric");
    }
}

#[test]
fn the_rule_needs_distance_time_and_text_together() {
    let rule = DuplicateRule {
        radius_m: 50.0,
        window_seconds: 3600,
        min_similarity: 0.4,
    };
    for (distance, seconds, sim, expected) in [
        (0.0, 0, 1.0, true),
        (50.0, 3600, 0.4, true), // limits are inclusive
        (50.0, -3600, 0.4, true),
        (50.01, 0, 1.0, false),
        (0.0, 3601, 1.0, false),
        (0.0, -3601, 1.0, false),
        (0.0, 0, 0.39, false),
    ] {
        assert_eq!(
            rule.suggests(distance, seconds, sim),
            expected,
            "{distance} m, {seconds} s, {sim}"
        );
    }
}
