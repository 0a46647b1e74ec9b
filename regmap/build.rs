//! Records the build's identity for the `fw_id` block: the git commit hash (first 32 bits)
//! and its commit time (the build id). Outside a git checkout both are 0.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let hash = git(&["rev-parse", "HEAD"])
        .and_then(|h| u32::from_str_radix(h.get(..8)?, 16).ok())
        .unwrap_or(0);
    let time = git(&["log", "-1", "--format=%ct"])
        .and_then(|t| t.parse::<u32>().ok())
        .unwrap_or(0);
    println!("cargo:rustc-env=ROCE_CC_GIT_HASH={hash}");
    println!("cargo:rustc-env=ROCE_CC_BUILD_ID={time}");
    // A new commit changes HEAD (and the ref it points to).
    for path in ["../.git/HEAD", "../.git/refs/heads"] {
        println!("cargo:rerun-if-changed={path}");
    }
}
