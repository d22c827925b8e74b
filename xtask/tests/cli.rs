//! `cargo xtask --help` and `-h` print the usage on standard output and succeed; an unknown
//! command fails.

use std::process::Command;

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("xtask runs")
}

#[test]
fn help_is_printed_and_succeeds() {
    for flag in ["--help", "-h", "help"] {
        let out = run(&[flag]);
        assert!(out.status.success(), "{flag}: {:?}", out.status);
        let usage = String::from_utf8_lossy(&out.stdout);
        assert!(usage.starts_with("usage: cargo xtask"), "{flag}: {usage}");
        assert!(usage.contains("bench") && usage.contains("dist"), "{usage}");
    }
}

#[test]
fn an_unknown_command_fails() {
    let out = run(&["no-such-command"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage: cargo xtask"));
}
