//! Pure rules of platform messages (audiences, validity windows, version fingerprint).
