#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tafl_engine_fuzz::checks::check_game_record(data));
