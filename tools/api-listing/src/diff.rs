//! A unified diff of two texts, by lines, for the test's failure message.

/// The unified diff (3 lines of context) from `old` to `new`; empty when they are equal.
pub fn unified(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    if a == b {
        return String::new();
    }
    let ops = lcs_ops(&a, &b);
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    // Groups the changes into hunks with 3 lines of context.
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, o)| !matches!(o, Op::Same(..)))
        .map(|(i, _)| i)
        .collect();
    let mut i = 0;
    while i < changed.len() {
        let start = changed[i].saturating_sub(3);
        let mut end = changed[i] + 1;
        while i < changed.len() && changed[i] <= end + 5 {
            end = changed[i] + 1;
            i += 1;
        }
        let end = (end + 3).min(ops.len());
        let (mut a0, mut b0) = (usize::MAX, usize::MAX);
        let (mut an, mut bn) = (0, 0);
        let mut body = String::new();
        for op in &ops[start..end] {
            match *op {
                Op::Same(x, y) => {
                    a0 = a0.min(x);
                    b0 = b0.min(y);
                    an += 1;
                    bn += 1;
                    body.push_str(&format!(" {}\n", a[x]));
                }
                Op::Del(x, y) => {
                    a0 = a0.min(x);
                    b0 = b0.min(y);
                    an += 1;
                    body.push_str(&format!("-{}\n", a[x]));
                }
                Op::Add(x, y) => {
                    a0 = a0.min(x);
                    b0 = b0.min(y);
                    bn += 1;
                    body.push_str(&format!("+{}\n", b[y]));
                }
            }
        }
        out.push_str(&format!("@@ -{},{an} +{},{bn} @@\n{body}", a0 + 1, b0 + 1));
    }
    out
}

/// An edit step; each carries the positions in `a` and `b` it is at.
enum Op {
    Same(usize, usize),
    Del(usize, usize),
    Add(usize, usize),
}

fn lcs_ops(a: &[&str], b: &[&str]) -> Vec<Op> {
    // The common head and tail first: a listing changes in a few places.
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops: Vec<Op> = (0..head).map(|i| Op::Same(i, i)).collect();
    // Longest common subsequence of the middle.
    let (n, m) = (ma.len(), mb.len());
    let mut t = vec![0u32; (n + 1) * (m + 1)];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[i * (m + 1) + j] = if ma[i] == mb[j] {
                t[(i + 1) * (m + 1) + j + 1] + 1
            } else {
                t[(i + 1) * (m + 1) + j].max(t[i * (m + 1) + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && ma[i] == mb[j] {
            ops.push(Op::Same(head + i, head + j));
            i += 1;
            j += 1;
        } else if i < n && (j == m || t[(i + 1) * (m + 1) + j] >= t[i * (m + 1) + j + 1]) {
            // Removed lines first, as `diff -u` shows them.
            ops.push(Op::Del(head + i, head + j));
            i += 1;
        } else {
            ops.push(Op::Add(head + i, head + j));
            j += 1;
        }
    }
    ops.extend((0..tail).map(|k| Op::Same(a.len() - tail + k, b.len() - tail + k)));
    ops
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified("a\nb\n", "a\nb\n", "x", "y"), "");
    }

    #[test]
    fn a_changed_line_shows_as_minus_and_plus_with_context() {
        let d = unified("a\nb\nc\nd\n", "a\nb\nC\nd\n", "old", "new");
        assert_eq!(d, "--- old\n+++ new\n@@ -1,4 +1,4 @@\n a\n b\n-c\n+C\n d\n");
    }
}
