//! `base32 [-d] [-i] [-w COLS] [FILE]` (GNU coreutils); the codec is in `basenc`.

use super::basenc::{self, Base};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Base32;

#[async_trait]
impl Utility for Base32 {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        basenc::run(ctx, Base::B32).await
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn encodes_and_decodes() {
        check(&["base32"], &[], "abcd", "MFRGGZA=\n", "", 0);
        check(&["base32", "-w", "10"], &[], "hello world", "NBSWY3DPEB\n3W64TMMQ==\n====\n", "", 0);
        check(&["base32", "-d"], &[], "MFRGGZA=\nMFRG", "abcd", "base32: invalid input\n", 1);
        check(&["base32", "-di"], &[], "mfrg*ggza=\n", "", "base32: invalid input\n", 1);
        check(&["base32", "-d"], &[], "MFRGG===\n", "abc", "", 0);
        check(&["base32", "-d"], &[], "MFRGG==\n", "", "base32: invalid input\n", 1);
    }
}
