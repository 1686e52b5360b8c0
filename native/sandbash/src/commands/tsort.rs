//! `tsort [FILE]` (GNU coreutils): topological sort of whitespace-separated
//! pairs. The order follows GNU's algorithm exactly (Knuth's T: items scanned
//! in byte order, successors taken newest first), and so does the loop
//! report, so the output matches GNU's byte for byte.

use super::util::{quotef, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;
use std::collections::BTreeMap;

pub struct Tsort;

const SPEC: Spec = Spec::new("", &[], "[OPTION] [FILE]");

struct Item {
    name: Vec<u8>,
    /// Predecessors not yet output.
    count: usize,
    /// Successors, oldest first (GNU walks its list from the newest).
    succ: Vec<usize>,
    /// Queue link, also used to chain a loop's path (GNU's `qlink`).
    qlink: Option<usize>,
    printed: bool,
}

struct Graph {
    items: Vec<Item>,
    /// Item indexes in byte order of their names (GNU's tree walk order).
    order: Vec<usize>,
}

impl Graph {
    /// `Err(true)`: an odd number of tokens; `Err(false)`: the exec must stop.
    fn build(data: &[u8]) -> Result<Graph, bool> {
        let mut index: BTreeMap<&[u8], usize> = BTreeMap::new();
        let mut items: Vec<Item> = Vec::new();
        let mut pending: Option<usize> = None;
        for tok in data.split(|b| b" \t\n".contains(b)).filter(|t| !t.is_empty()) {
            if let Err(stop) = crate::limits::checkpoint().and_then(|()| crate::limits::scope::before_push(&items)) {
                crate::limits::scope::stop_exec(stop);
                return Err(false);
            }
            let k = *index.entry(tok).or_insert_with(|| {
                items.push(Item { name: tok.to_vec(), count: 0, succ: Vec::new(), qlink: None, printed: false });
                items.len() - 1
            });
            match pending.take() {
                Some(j) => {
                    if j != k {
                        items[k].count += 1;
                        items[j].succ.push(k);
                    }
                }
                None => pending = Some(k),
            }
        }
        if pending.is_some() {
            return Err(true);
        }
        Ok(Graph { items, order: index.into_values().collect() })
    }

    /// GNU's detect_loop over every item in order; the loop's members go to
    /// `report` and one relation of it is removed. Whether a loop was found.
    fn detect_loop(&mut self, start: &mut Option<usize>, report: &mut Vec<Vec<u8>>) -> bool {
        for oi in 0..self.order.len() {
            // A walk is linear and there may be as many walks as items.
            if crate::limits::checkpoint().is_err() {
                return false;
            }
            let k = self.order[oi];
            if self.items[k].count == 0 {
                continue;
            }
            let Some(lp) = *start else {
                *start = Some(k);
                continue;
            };
            let Some(pos) = self.items[k].succ.iter().rposition(|&s| s == lp) else { continue };
            if self.items[k].qlink.is_some() {
                // Retrace the path back to k, then drop the relation k -> lp.
                let mut cur = Some(lp);
                while let Some(c) = cur {
                    let next = self.items[c].qlink;
                    report.push(self.items[c].name.clone());
                    if c == k {
                        self.items[lp].count -= 1;
                        self.items[k].succ.remove(pos);
                        break;
                    }
                    self.items[c].qlink = None;
                    cur = next;
                }
                while let Some(c) = cur {
                    cur = self.items[c].qlink.take();
                }
                *start = None;
                return true;
            }
            self.items[k].qlink = Some(lp);
            *start = Some(k);
        }
        false
    }
}

#[async_trait]
impl Utility for Tsort {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts_at_most(&SPEC, 1).await?;
        let file = p.operands.first().map_or("-", String::as_str);
        let data = match ctx.read_operand(file).await {
            Ok(d) => d,
            Err(e) => {
                return Err(UError::new(1, format!("{}: {e}", quotef(file))));
            }
        };
        let mut g = match Graph::build(&data) {
            Ok(g) => g,
            Err(true) => {
                return Err(UError::new(1, format!("{}: input contains an odd number of tokens", quotef(file))))
            }
            Err(false) => return Ok(1),
        };
        let mut left = g.items.len();
        let mut status = 0;
        let mut out = Vec::new();
        while left > 0 {
            if !ctx.still_running() {
                return Ok(1);
            }
            let mut queue: std::collections::VecDeque<usize> =
                g.order.iter().copied().filter(|&k| g.items[k].count == 0 && !g.items[k].printed).collect();
            while let Some(h) = queue.pop_front() {
                if left % 4096 == 0 && !ctx.still_running() {
                    return Ok(1);
                }
                out.extend_from_slice(&g.items[h].name);
                out.push(b'\n');
                g.items[h].printed = true;
                left -= 1;
                for i in (0..g.items[h].succ.len()).rev() {
                    let s = g.items[h].succ[i];
                    g.items[s].count -= 1;
                    if g.items[s].count == 0 {
                        queue.push_back(s);
                    }
                }
            }
            ctx.out(&out).await?;
            out.clear();
            if left > 0 {
                ctx.err(format!("{}: input contains a loop:", quotef(file))).await?;
                status = 1;
                let mut start = None;
                let mut report = Vec::new();
                // Each walk lengthens the path by one item or closes the loop.
                for _ in 0..=g.items.len() {
                    let found = g.detect_loop(&mut start, &mut report);
                    if found || start.is_none() || !ctx.still_running() {
                        break;
                    }
                }
                for name in report {
                    ctx.err(String::from_utf8_lossy(&name)).await?;
                }
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn sorts() {
        check(&["tsort"], &[], "a b\nb c\n", "a\nb\nc\n", "", 0);
        check(&["tsort"], &[], "x x\ny z\n", "x\ny\nz\n", "", 0);
        check(&["tsort"], &[], "3 1\n2 1\n5 4\n4 1\n", "2\n3\n5\n4\n1\n", "", 0);
        check(&["tsort"], &[], "", "", "", 0);
        check(&["tsort", "f"], &[("f", "b a\tc a\n")], "", "b\nc\na\n", "", 0);
    }

    #[test]
    fn loops() {
        check(
            &["tsort"],
            &[],
            "a b b c c a\n",
            "a\nb\nc\n",
            "tsort: -: input contains a loop:\ntsort: a\ntsort: b\ntsort: c\n",
            1,
        );
        check(
            &["tsort"],
            &[],
            "a b\nb a\nc d\n",
            "c\nd\na\nb\n",
            "tsort: -: input contains a loop:\ntsort: a\ntsort: b\n",
            1,
        );
        let err = "tsort: -: input contains a loop:\ntsort: d\ntsort: e\ntsort: c\n\
                   tsort: -: input contains a loop:\ntsort: a\ntsort: b\ntsort: c\n";
        check(&["tsort"], &[], "a b\nb c\nc a\nc d\nd e\ne c\nx y\n", "x\ny\nd\ne\na\nb\nc\n", err, 1);
        let err = "tsort: -: input contains a loop:\ntsort: 4\ntsort: 2\ntsort: 3\n\
                   tsort: -: input contains a loop:\ntsort: 1\ntsort: 2\ntsort: 3\n";
        check(&["tsort"], &[], "1 2\n2 3\n3 1\n3 4\n4 2\n", "4\n1\n2\n3\n", err, 1);
    }

    #[test]
    fn errors() {
        check(&["tsort"], &[], "a b c\n", "", "tsort: -: input contains an odd number of tokens\n", 1);
        check(&["tsort", "nofile"], &[], "", "", "tsort: nofile: No such file or directory\n", 1);
        check(
            &["tsort", "a", "b"],
            &[],
            "",
            "",
            "tsort: extra operand 'b'\nTry 'tsort --help' for more information.\n",
            1,
        );
    }
}
