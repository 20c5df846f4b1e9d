//! Packed coordinates for SQLite: per line a little-endian u32 point count followed by
//! little-endian f64 `lon, lat` pairs. Decoding is far cheaper than parsing GeoJSON text.

/// Packs lines of `[lon, lat]`.
pub(crate) fn pack(lines: &[Vec<[f64; 2]>]) -> Vec<u8> {
    let points: usize = lines.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(lines.len() * 4 + points * 16);
    for line in lines {
        let n = u32::try_from(line.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&n.to_le_bytes());
        for p in line.iter().take(n as usize) {
            out.extend_from_slice(&p[0].to_le_bytes());
            out.extend_from_slice(&p[1].to_le_bytes());
        }
    }
    out
}

/// Unpacks what [`pack`] wrote; `None` if the bytes are truncated.
pub(crate) fn unpack(mut bytes: &[u8]) -> Option<Vec<Vec<[f64; 2]>>> {
    let mut lines = Vec::new();
    while !bytes.is_empty() {
        let (count, rest) = bytes.split_first_chunk::<4>()?;
        bytes = rest;
        let n = u32::from_le_bytes(*count) as usize;
        let mut line = Vec::with_capacity(n);
        for _ in 0..n {
            let (lon, rest) = bytes.split_first_chunk::<8>()?;
            let (lat, rest) = rest.split_first_chunk::<8>()?;
            line.push([f64::from_le_bytes(*lon), f64::from_le_bytes(*lat)]);
            bytes = rest;
        }
        lines.push(line);
    }
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_truncation() {
        let lines = vec![
            vec![[14.1, 50.1], [14.2, 50.2]],
            vec![[-1.5, 0.25], [1.0, 2.0], [3.0, 4.0]],
        ];
        let packed = pack(&lines);
        assert_eq!(unpack(&packed).unwrap(), lines);
        assert_eq!(unpack(&packed[..packed.len() - 1]), None);
        assert_eq!(unpack(&[]).unwrap(), Vec::<Vec<[f64; 2]>>::new());
    }
}
