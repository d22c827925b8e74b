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
        use std::os::unix::fs::OpenOptionsExt;
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
        {
            Ok(_) => {}
            // An existing file is checked with the rest by `exposed`.
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error),
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// What others than the server's user may read or enter: the database file, its `-wal` and
/// `-shm`, the artifact folder and the files in it. Those made before the server created them
/// owner-only keep their old modes; each warning says what to run. Files of the folder are
/// counted, not listed one by one.
pub fn exposed(db: &Path, folder: &Path) -> Vec<String> {
    let mut warnings = Vec::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let open_to_others = |path: &Path| {
            std::fs::symlink_metadata(path)
                .ok()
                .map(|meta| meta.permissions().mode() & 0o777)
                .filter(|mode| mode & 0o077 != 0)
        };
        let mut files = vec![db.to_path_buf()];
        for suffix in ["-wal", "-shm"] {
            let mut name = db.as_os_str().to_owned();
            name.push(suffix);
            files.push(name.into());
        }
        for file in files {
            if let Some(mode) = open_to_others(&file) {
                warnings.push(format!(
                    "{} is readable by other users (mode {mode:o}); it holds account hashes and \
                     perhaps the token key: chmod 600 it",
                    file.display()
                ));
            }
        }
        if let Some(mode) = open_to_others(folder) {
            warnings.push(format!(
                "the artifact folder {} is open to other users (mode {mode:o}): chmod 700 it",
                folder.display()
            ));
        }
        let open_files = std::fs::read_dir(folder)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|entry| open_to_others(&entry.path()).is_some())
            .count();
        if open_files > 0 {
            warnings.push(format!(
                "{open_files} uploaded file(s) in {} are readable by other users: chmod 600 them",
                folder.display()
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = (db, folder);
    warnings
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
        assert!(super::exposed(&db, &dir.path().join("larder.db-artifacts")).is_empty());
    }

    /// Files and folders made before the server made them owner-only keep their modes: each
    /// kind is warned about at start.
    #[test]
    fn files_made_before_owner_only_are_warned_about() {
        use std::fs::{set_permissions, write, Permissions};
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("larder.db");
        let folder = dir.path().join("larder.db-artifacts");
        std::fs::create_dir(&folder).unwrap();
        for file in ["larder.db", "larder.db-wal", "larder.db-shm"] {
            write(dir.path().join(file), b"").unwrap();
        }
        write(folder.join("upload-1"), b"x").unwrap();
        write(folder.join("upload-2"), b"x").unwrap();
        for path in [
            dir.path().join("larder.db-wal"),
            folder.join("upload-1"),
            folder.join("upload-2"),
        ] {
            set_permissions(&path, Permissions::from_mode(0o644)).unwrap();
        }
        set_permissions(&db, Permissions::from_mode(0o600)).unwrap();
        set_permissions(
            dir.path().join("larder.db-shm"),
            Permissions::from_mode(0o600),
        )
        .unwrap();
        set_permissions(&folder, Permissions::from_mode(0o755)).unwrap();
        let warnings = super::exposed(&db, &folder);
        assert_eq!(warnings.len(), 3, "{warnings:#?}");
        assert!(warnings[0].contains("larder.db-wal") && warnings[0].contains("644"));
        assert!(warnings[1].contains("artifact folder") && warnings[1].contains("755"));
        assert!(warnings[2].starts_with("2 uploaded file(s)"));
        // Store::open reads the same list and keeps going.
        drop(Store::open(db.to_str().unwrap()).unwrap());
    }
}
