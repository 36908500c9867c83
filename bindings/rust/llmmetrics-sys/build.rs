//! Finds libllmmetrics for the linker.
//!
//! Order:
//! 1. `LLMMETRICS_LIB_DIR` (non-empty): link `-lllmmetrics` from that directory, nothing else.
//! 2. The `pkg-config` binary (or `$PKG_CONFIG`): `pkg-config --libs --cflags llmmetrics`.
//!    With `PKG_CONFIG_PATH` naming a meson build's `meson-uninstalled` directory, pkg-config
//!    prefers `llmmetrics-uninstalled.pc` and the build tree's library is used.
//! 3. Neither: plain `-lllmmetrics` from the linker's default paths, with a warning.
//!
//! The directory found is passed to dependent build scripts as `DEP_LLMMETRICS_LIB_DIR`
//! (and the header directories as `DEP_LLMMETRICS_INCLUDE`, separated like `PATH`).
//! Running the result needs the library on the loader's path (`LD_LIBRARY_PATH` for a build
//! tree).

use std::env;
use std::ffi::OsString;
use std::process::Command;

/// Major version of the C library these declarations were written for.
const REQUIRED_MAJOR: &str = "1";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in [
        "LLMMETRICS_LIB_DIR",
        "PKG_CONFIG",
        "PKG_CONFIG_PATH",
        "PKG_CONFIG_LIBDIR",
        "PKG_CONFIG_SYSROOT_DIR",
    ] {
        println!("cargo:rerun-if-env-changed={}", var);
    }

    if let Some(dir) = env::var_os("LLMMETRICS_LIB_DIR").filter(|d| !d.is_empty()) {
        let dir = dir.to_string_lossy().into_owned();
        println!("cargo:rustc-link-search=native={}", dir);
        println!("cargo:rustc-link-lib=dylib=llmmetrics");
        println!("cargo:lib_dir={}", dir);
        return;
    }

    match probe_pkg_config() {
        Ok(()) => {}
        Err(why) => {
            println!(
                "cargo:warning=llmmetrics-sys: {}; linking -lllmmetrics from the default paths \
                 (set LLMMETRICS_LIB_DIR or PKG_CONFIG_PATH)",
                why
            );
            println!("cargo:rustc-link-lib=dylib=llmmetrics");
        }
    }
}

fn pkg_config_program() -> OsString {
    env::var_os("PKG_CONFIG")
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| OsString::from("pkg-config"))
}

fn run_pkg_config(args: &[&str]) -> Result<String, String> {
    let program = pkg_config_program();
    let out = Command::new(&program)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {}", program.to_string_lossy(), e))?;
    if !out.status.success() {
        return Err(format!(
            "`{} {}` failed: {}",
            program.to_string_lossy(),
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8(out.stdout).map_err(|_| "pkg-config printed non-UTF-8 output".to_string())
}

fn probe_pkg_config() -> Result<(), String> {
    let version = run_pkg_config(&["--modversion", "llmmetrics"])?;
    let version = version.trim();
    if version.split('.').next() != Some(REQUIRED_MAJOR) {
        // A different major version is a different ABI: refuse rather than mislink.
        panic!(
            "llmmetrics-sys needs libllmmetrics {}.x, pkg-config found {}",
            REQUIRED_MAJOR, version
        );
    }
    let flags = run_pkg_config(&["--libs", "--cflags", "llmmetrics"])?;
    let mut lib_dirs = Vec::new();
    let mut include_dirs = Vec::new();
    let mut linked = false;
    for token in flags.split_whitespace() {
        if let Some(dir) = token.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
            lib_dirs.push(dir.to_string());
        } else if let Some(name) = token.strip_prefix("-l") {
            println!("cargo:rustc-link-lib={}", name);
            linked |= name == "llmmetrics";
        } else if let Some(dir) = token.strip_prefix("-I") {
            include_dirs.push(dir.to_string());
        }
    }
    if !linked {
        println!("cargo:rustc-link-lib=dylib=llmmetrics");
    }
    if let Some(dir) = lib_dirs.first() {
        println!("cargo:lib_dir={}", dir);
    }
    if !include_dirs.is_empty() {
        let joined = env::join_paths(&include_dirs).map_err(|e| e.to_string())?;
        println!("cargo:include={}", joined.to_string_lossy());
    }
    Ok(())
}
