//! Parser for `test`/`[` arguments with POSIX's argument-count rules (0 to 4
//! arguments) and, beyond that, `!` > `-a` > `-o` precedence with parentheses.

use brush_parser::ast::{BinaryPredicate as BP, TestExpr, UnaryPredicate as UP};

pub fn unary_op(s: &str) -> Option<UP> {
    Some(match s {
        "-a" | "-e" => UP::FileExists,
        "-b" => UP::FileExistsAndIsBlockSpecialFile,
        "-c" => UP::FileExistsAndIsCharSpecialFile,
        "-d" => UP::FileExistsAndIsDir,
        "-f" => UP::FileExistsAndIsRegularFile,
        "-g" => UP::FileExistsAndIsSetgid,
        "-h" | "-L" => UP::FileExistsAndIsSymlink,
        "-k" => UP::FileExistsAndHasStickyBit,
        "-p" => UP::FileExistsAndIsFifo,
        "-r" => UP::FileExistsAndIsReadable,
        "-s" => UP::FileExistsAndIsNotZeroLength,
        "-t" => UP::FdIsOpenTerminal,
        "-u" => UP::FileExistsAndIsSetuid,
        "-w" => UP::FileExistsAndIsWritable,
        "-x" => UP::FileExistsAndIsExecutable,
        "-G" => UP::FileExistsAndOwnedByEffectiveGroupId,
        "-N" => UP::FileExistsAndModifiedSinceLastRead,
        "-O" => UP::FileExistsAndOwnedByEffectiveUserId,
        "-S" => UP::FileExistsAndIsSocket,
        "-o" => UP::ShellOptionEnabled,
        "-v" => UP::ShellVariableIsSetAndAssigned,
        "-R" => UP::ShellVariableIsSetAndNameRef,
        "-z" => UP::StringHasZeroLength,
        "-n" => UP::StringHasNonZeroLength,
        _ => return None,
    })
}

pub fn binary_op(s: &str) -> Option<BP> {
    Some(match s {
        "=" | "==" => BP::StringExactlyMatchesString,
        "!=" => BP::StringDoesNotExactlyMatchString,
        "<" => BP::LeftSortsBeforeRight,
        ">" => BP::LeftSortsAfterRight,
        "-eq" => BP::ArithmeticEqualTo,
        "-ne" => BP::ArithmeticNotEqualTo,
        "-lt" => BP::ArithmeticLessThan,
        "-le" => BP::ArithmeticLessThanOrEqualTo,
        "-gt" => BP::ArithmeticGreaterThan,
        "-ge" => BP::ArithmeticGreaterThanOrEqualTo,
        "-nt" => BP::LeftFileIsNewerOrExistsWhenRightDoesNot,
        "-ot" => BP::LeftFileIsOlderOrDoesNotExistWhenRightDoes,
        "-ef" => BP::FilesReferToSameDeviceAndInodeNumbers,
        _ => return None,
    })
}

/// Parse `test` arguments (without the closing `]`). `Err` is bash's message
/// without the `test: ` prefix.
pub fn parse(args: &[&str]) -> Result<TestExpr, String> {
    match args.len() {
        0 => Ok(TestExpr::False),
        1 => Ok(TestExpr::Literal(args[0].to_string())),
        2 => two(args),
        3 => three(args),
        4 if args[0] == "!" => Ok(not(three(&args[1..])?)),
        4 if args[0] == "(" && args[3] == ")" => two(&args[1..3]),
        _ => {
            let mut p = Parser { args, pos: 0, nest: 0 };
            let e = p.or()?;
            match p.args.get(p.pos) {
                None => Ok(e),
                Some(_) => Err("too many arguments".into()),
            }
        }
    }
}

fn not(e: TestExpr) -> TestExpr {
    TestExpr::Not(Box::new(e))
}

fn two(a: &[&str]) -> Result<TestExpr, String> {
    if a[0] == "!" {
        return Ok(not(TestExpr::Literal(a[1].to_string())));
    }
    match unary_op(a[0]) {
        Some(op) => Ok(TestExpr::UnaryTest(op, a[1].to_string())),
        None => Err(format!("{}: unary operator expected", a[0])),
    }
}

fn three(a: &[&str]) -> Result<TestExpr, String> {
    if let Some(op) = binary_op(a[1]) {
        return Ok(TestExpr::BinaryTest(op, a[0].to_string(), a[2].to_string()));
    }
    match a[1] {
        "-a" => {
            return Ok(TestExpr::And(
                Box::new(TestExpr::Literal(a[0].into())),
                Box::new(TestExpr::Literal(a[2].into())),
            ))
        }
        "-o" => {
            return Ok(TestExpr::Or(Box::new(TestExpr::Literal(a[0].into())), Box::new(TestExpr::Literal(a[2].into()))))
        }
        _ => {}
    }
    if a[0] == "!" {
        return Ok(not(two(&a[1..])?));
    }
    if a[0] == "(" && a[2] == ")" {
        return Ok(TestExpr::Literal(a[1].to_string()));
    }
    Err(format!("{}: binary operator expected", a[1]))
}

/// Parentheses nested deeper than this are refused (bash recurses on its C
/// stack without a limit and crashes somewhere past 100,000).
pub const MAX_TEST_NESTING: usize = 1024;

/// The error for parentheses nested past [`MAX_TEST_NESTING`] (or the stack).
pub const TOO_DEEP: &str = "expression nested too deeply";

struct Parser<'a> {
    args: &'a [&'a str],
    pos: usize,
    /// Parentheses open at the cursor.
    nest: usize,
}

/// `items` joined by `join` into a balanced tree, in order. `&&` and `||`
/// are associative (short-circuit included), so a long `-a`/`-o` chain
/// becomes a tree of logarithmic depth: its evaluation and its drop recurse
/// that deep only.
fn balanced(items: Vec<TestExpr>, join: fn(Box<TestExpr>, Box<TestExpr>) -> TestExpr) -> TestExpr {
    balanced_tree(items, join).unwrap_or(TestExpr::False)
}

/// `items` joined pairwise, level by level, into a tree of logarithmic depth
/// (in order); `None` for no items. Shared with `find`'s expressions.
pub(crate) fn balanced_tree<T>(mut items: Vec<T>, join: fn(Box<T>, Box<T>) -> T) -> Option<T> {
    while items.len() > 1 {
        let mut next = Vec::with_capacity(items.len().div_ceil(2));
        let mut it = items.into_iter();
        while let Some(a) = it.next() {
            match it.next() {
                Some(b) => next.push(join(Box::new(a), Box::new(b))),
                None => next.push(a),
            }
        }
        items = next;
    }
    items.pop()
}

fn step() -> Result<(), String> {
    crate::limits::checkpoint().map_err(|s| s.to_string())
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.args.get(self.pos).copied()
    }

    fn or(&mut self) -> Result<TestExpr, String> {
        let mut items = vec![self.and()?];
        while self.peek() == Some("-o") {
            step()?;
            self.pos += 1;
            items.push(self.and()?);
        }
        Ok(balanced(items, TestExpr::Or))
    }

    fn and(&mut self) -> Result<TestExpr, String> {
        let mut items = vec![self.not()?];
        while self.peek() == Some("-a") {
            step()?;
            self.pos += 1;
            items.push(self.not()?);
        }
        Ok(balanced(items, TestExpr::And))
    }

    /// `! ! ... primary`: counted in a loop, as bash does (no recursion).
    fn not(&mut self) -> Result<TestExpr, String> {
        let mut negate = false;
        while self.peek() == Some("!") {
            step()?;
            self.pos += 1;
            negate = !negate;
        }
        let e = self.primary()?;
        Ok(if negate { not(e) } else { e })
    }

    fn primary(&mut self) -> Result<TestExpr, String> {
        let Some(a) = self.peek() else {
            return Err("argument expected".into());
        };
        if a == "(" {
            self.pos += 1;
            self.nest += 1;
            if self.nest > MAX_TEST_NESTING || crate::limits::stack_low() {
                return Err(TOO_DEEP.into());
            }
            let e = self.or()?;
            if self.peek() != Some(")") {
                return Err("`)' expected".into());
            }
            self.pos += 1;
            self.nest -= 1;
            return Ok(e);
        }
        // A binary operator after this word makes it the left operand.
        if let (Some(op), Some(rhs)) =
            (self.args.get(self.pos + 1).and_then(|o| binary_op(o)), self.args.get(self.pos + 2))
        {
            self.pos += 3;
            return Ok(TestExpr::BinaryTest(op, a.to_string(), rhs.to_string()));
        }
        if let (Some(op), Some(arg)) = (unary_op(a), self.args.get(self.pos + 1)) {
            self.pos += 2;
            return Ok(TestExpr::UnaryTest(op, arg.to_string()));
        }
        self.pos += 1;
        Ok(TestExpr::Literal(a.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(e: &TestExpr) -> usize {
        match e {
            TestExpr::And(a, b) | TestExpr::Or(a, b) => 1 + depth(a).max(depth(b)),
            TestExpr::Not(a) | TestExpr::Parenthesized(a) => 1 + depth(a),
            _ => 1,
        }
    }

    #[test]
    fn bang_chains_fold_to_their_parity() {
        let mut args = vec!["!"; 100_001];
        args.push("x");
        let e = parse(&args).unwrap_or(TestExpr::False);
        assert!(matches!(e, TestExpr::Not(ref a) if matches!(**a, TestExpr::Literal(_))));
        args.remove(0);
        assert!(matches!(parse(&args), Ok(TestExpr::Literal(_))));
    }

    #[test]
    fn long_and_or_chains_are_shallow() {
        let mut args = vec!["1"];
        for _ in 0..100_000 {
            args.extend(["-a", "1", "-o", ""]);
        }
        let e = parse(&args).unwrap_or(TestExpr::False);
        assert!(depth(&e) < 64, "{}", depth(&e));
    }

    #[test]
    fn parentheses_past_the_limit_are_refused() {
        let n = MAX_TEST_NESTING + 1;
        let mut args = vec!["("; n];
        args.push("1");
        args.extend(std::iter::repeat_n(")", n));
        assert_eq!(parse(&args).err().as_deref(), Some(TOO_DEEP));
        // (A test thread has a small stack: a modest depth.)
        let ok: Vec<&str> = args[n - 100..args.len() - (n - 100)].to_vec();
        assert!(parse(&ok).is_ok());
    }
}
