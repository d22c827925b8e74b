//! Work over the files of a build, shared by the dist step, the split build, the bench and
//! realprod's site: listing a folder's files, copying a folder, and running a job over files on
//! both cores.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

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

/// Copies the folder `from` into `to` (made if missing), sub-folders included.
pub fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}
