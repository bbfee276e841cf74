//! Helpers of the programs' tests: the fake servers' client processes live here; fixtures,
//! reference rules and seeded randomness are the library's test helpers, shared from
//! tests/common/.

#[path = "../../../tests/common/blocks.rs"]
pub mod blocks;
pub mod client_process;

#[path = "../../../tests/common/fixtures.rs"]
pub mod fixtures;
#[path = "../../../tests/common/seeded.rs"]
pub mod seeded;
#[path = "../../../tests/common/variant_fixtures.rs"]
pub mod variant_fixtures;
