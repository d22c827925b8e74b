//! Owner-only files: the database may hold the token signing key (without `--token-key-file`)
//! and every account's secret hash, and the artifact folder holds uploads, so both are created
//! readable by the server's user alone (0600 and 0700), whatever the umask.
//!
//! SQLite gives its `-wal` and `-shm` files the database file's mode, so creating the database
//! file first, empty and 0600, covers them too (an empty file is a new database to SQLite).

use std::path::Path;

/// Creates the database file, owner-only, unless it exists; an existing file readable by others
/// is left as the operator made it, with a warning.
pub fn create_database(path: &Path) -> std::io::Result<()> {
    // A SQLite URI (`file:...?mode=...`) is SQLite's to open as it says.
    if path.to_str().is_some_and(|p| p.starts_with("file:")) {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
        {
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                let mode = std::fs::metadata(path)?.permissions().mode();
                if mode & 0o077 != 0 {
                    tracing::warn!(
                        "{} is readable by other users (mode {:o}); it holds account hashes and \
                         perhaps the token key: chmod 600 it and its -wal and -shm files",
                        path.display(),
                        mode & 0o777
                    );
                }
            }
            Err(error) => return Err(error),
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Creates a folder (and its missing parents) owner-only.
pub fn create_folder(path: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(path)
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::super::Store;

    fn mode(path: &std::path::Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn the_database_its_journal_and_the_artifact_folder_are_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("larder.db");
        let store = Store::open(db.to_str().unwrap()).unwrap();
        // A write, so the WAL and shared-memory files exist.
        store
            .with(|conn| conn.execute("INSERT INTO meta (key, value) VALUES ('t', x'00')", []))
            .unwrap();
        let wal = dir.path().join("larder.db-wal");
        let shm = dir.path().join("larder.db-shm");
        assert!(wal.is_file() && shm.is_file());
        for file in [&db, &wal, &shm] {
            assert_eq!(mode(file), 0o600, "{}", file.display());
        }
        assert_eq!(mode(&dir.path().join("larder.db-artifacts")), 0o700);
    }
}
