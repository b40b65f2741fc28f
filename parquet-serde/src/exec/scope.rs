//! Scoped workers: threads that may borrow from their caller, all joined before [`scope`]
//! returns, and [`run_groups`], which shares groups of items out among such threads.

use std::sync::{Mutex, PoisonError};
use std::thread::ScopedJoinHandle;

use crate::error::{Error, ErrorKind, Result};

use super::catch;

/// Runs `f` with a [`Scope`] to start workers in; returns once every worker has ended.
pub(crate) fn scope<'env, R>(f: impl for<'scope> FnOnce(&Scope<'scope, 'env>) -> R) -> R {
    std::thread::scope(|inner| f(&Scope { inner }))
}

/// Where scoped workers start (see [`scope`]).
#[derive(Debug)]
pub(crate) struct Scope<'scope, 'env: 'scope> {
    inner: &'scope std::thread::Scope<'scope, 'env>,
}

impl<'scope> Scope<'scope, '_> {
    /// Starts `job` on a new thread called `name`. A panic of the job is its error (see
    /// [`super::panicked`]). Fails when no thread could start: the caller then does the
    /// work itself or reports it.
    pub fn spawn<T: Send + 'scope>(
        &self,
        name: impl Into<String>,
        job: impl FnOnce() -> Result<T> + Send + 'scope,
    ) -> Result<Scoped<'scope, T>> {
        let name = name.into();
        let who = name.clone();
        let handle = std::thread::Builder::new()
            .name(name.clone())
            .spawn_scoped(self.inner, move || catch(format_args!("thread {who}"), job))
            .map_err(|e| Error::from(e).context(format!("starting thread {name}")))?;
        Ok(Scoped { name, handle })
    }
}

/// A worker started by [`Scope::spawn`].
#[derive(Debug)]
pub(crate) struct Scoped<'scope, T> {
    name: String,
    handle: ScopedJoinHandle<'scope, Result<T>>,
}

impl<T> Scoped<'_, T> {
    /// Waits for the job's result.
    pub fn join(self) -> Result<T> {
        // The job's panics are caught on its thread; this is for completeness.
        self.handle.join().unwrap_or_else(|payload| {
            Err(super::panicked(
                format_args!("thread {}", self.name),
                &*payload,
            ))
        })
    }
}

/// Runs `job` on every item of `groups` with up to `threads` threads, the calling one
/// included: a thread takes a whole group and runs its items in order, then takes the next
/// group left. The calling thread takes the first group; groups no helper thread took (none
/// could start) it runs too. The results come back in the shape and order of `groups`, one
/// per item; a panicking item fails with its message (and the other items still run).
pub(crate) fn run_groups<I: Send, T: Send>(
    name: &str,
    threads: usize,
    groups: Vec<Vec<I>>,
    job: impl Fn(I) -> Result<T> + Sync,
) -> Vec<Vec<Result<T>>> {
    let count = groups.len();
    let lens: Vec<usize> = groups.iter().map(Vec::len).collect();
    let queue = Mutex::new(groups.into_iter().enumerate());
    let results: Mutex<Vec<Option<Vec<Result<T>>>>> =
        Mutex::new((0..count).map(|_| None).collect());
    // Takes groups until none is left.
    let work = || loop {
        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
        let Some((g, group)) = next else { break };
        let done: Vec<Result<T>> = group
            .into_iter()
            .enumerate()
            .map(|(i, item)| catch(format_args!("{name} (group {g}, item {i})"), || job(item)))
            .collect();
        if let Some(slot) = results
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_mut(g)
        {
            *slot = Some(done);
        }
    };
    // A helper whose own bookkeeping failed (not a job: those are caught one by one).
    let failed = scope(|s| {
        let helpers = threads.min(count).saturating_sub(1);
        let mut started = Vec::with_capacity(helpers);
        for i in 0..helpers {
            match s.spawn(format!("{name}-{i}"), || {
                work();
                Ok(())
            }) {
                Ok(helper) => started.push(helper),
                Err(_) => break,
            }
        }
        work();
        started.into_iter().find_map(|helper| helper.join().err())
    });
    let mut failed = failed;
    results
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .into_iter()
        .zip(lens)
        .map(|(r, len)| {
            r.unwrap_or_else(|| {
                // A group taken by a helper that failed: its error (once), for each item.
                (0..len)
                    .map(|_| {
                        Err(failed.take().unwrap_or_else(|| {
                            Error::new(
                                ErrorKind::Internal,
                                format!("{name}: a group of jobs was not run to its end"),
                            )
                        }))
                    })
                    .collect()
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::tests::within;

    #[test]
    fn results_in_order_whatever_the_threads() {
        for threads in [1, 2, 3, 8] {
            let groups: Vec<Vec<u64>> = (0..5).map(|g| (g * 10..g * 10 + g).collect()).collect();
            let out = within(10, move || {
                run_groups("test-groups", threads, groups, |x| {
                    // Later items finish first.
                    std::thread::sleep(std::time::Duration::from_micros(100 * (50 - x)));
                    Ok(x * 2)
                })
            });
            let want: Vec<Vec<u64>> = (0..5)
                .map(|g| (g * 10..g * 10 + g).map(|x| x * 2).collect())
                .collect();
            let got: Vec<Vec<u64>> = out
                .into_iter()
                .map(|g| g.into_iter().map(|r| r.unwrap()).collect())
                .collect();
            assert_eq!(got, want, "{threads} threads");
        }
    }

    #[test]
    fn a_panicking_item_fails_alone_with_its_message() {
        let out = within(10, || {
            run_groups(
                "test-groups",
                2,
                vec![vec![1, 2], vec![3, 4, 5]],
                |x: i32| {
                    assert_ne!(x, 4, "item four panics");
                    Ok(x)
                },
            )
        });
        assert_eq!(out[0].iter().map(|r| *r.as_ref().unwrap()).sum::<i32>(), 3);
        assert_eq!(*out[1][0].as_ref().unwrap(), 3);
        let e = out[1][1].as_ref().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert!(
            e.message()
                .starts_with("test-groups (group 1, item 1) panicked: "),
            "{e}"
        );
        assert!(e.message().contains("item four panics"), "{e}");
        assert_eq!(*out[1][2].as_ref().unwrap(), 5);
    }

    #[test]
    fn items_may_borrow_and_mutate_disjoint_parts() {
        let mut buf = vec![0u8; 1000];
        let parts: Vec<Vec<&mut [u8]>> = buf.chunks_mut(100).map(|c| vec![c]).collect();
        let out = run_groups("test-fill", 4, parts, |part| {
            part.fill(7);
            Ok(())
        });
        assert!(out.iter().flatten().all(Result::is_ok));
        assert!(buf.iter().all(|&b| b == 7));
    }

    #[test]
    fn a_scoped_panic_is_an_error_of_its_thread() {
        let e = scope(|s| {
            s.spawn("test-panics", || -> Result<()> { panic!("scoped {}", 1) })
                .unwrap()
                .join()
        })
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert_eq!(e.message(), "thread test-panics panicked: scoped 1");
        let got = scope(|s| s.spawn("test-ok", || Ok(5)).unwrap().join()).unwrap();
        assert_eq!(got, 5);
    }
}
