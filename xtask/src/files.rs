//! Work over the files of a build, shared by the dist step and the split build: listing a
//! folder's files and running a job over them on both cores.

use std::path::{Path, PathBuf};

use anyhow::Result;

/// Runs `work` over `items` on two threads (this machine has two cores), first error wins.
pub fn on_both_cores<T: Sync>(items: &[T], work: impl Fn(&T) -> Result<()> + Sync) -> Result<()> {
    let half = items.len().div_ceil(2);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(half.max(1))
            .map(|part| scope.spawn(|| part.iter().try_for_each(&work)))
            .collect();
        handles
            .into_iter()
            .try_for_each(|h| h.join().map_err(|_| anyhow::anyhow!("a worker panicked"))?)
    })
}

/// Every file below `dir`.
pub fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            walk(&entry.path(), files)?;
        } else {
            files.push(entry.path());
        }
    }
    Ok(())
}
