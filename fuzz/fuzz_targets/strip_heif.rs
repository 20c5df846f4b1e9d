//! The Heif stripper on arbitrary bytes, whole and in pieces; see `citizen_api_fuzz::check`.
#![no_main]

use citizen_api::media::MediaType;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| citizen_api_fuzz::check(MediaType::Heif, data));
