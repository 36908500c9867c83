//! Finds libllmmetrics for the linker.
//!
//! Order:
//! 1. `LLMMETRICS_LIB_DIR` (non-empty): link `-lllmmetrics` from that directory, nothing else.
//! 2. The `pkg-config` binary (or `$PKG_CONFIG`): `pkg-config --libs --cflags llmmetrics`.
//!    With `PKG_CONFIG_PATH` naming a meson build's `meson-uninstalled` directory, pkg-config
//!    prefers `llmmetrics-uninstalled.pc` and the build tree's library is used.
//! 3. Neither: plain `-lllmmetrics` from the linker's default paths, with a warning.
//!
//! Static linking: with the cargo feature `static` (or `LLMMETRICS_STATIC=1`) the archive
//! `libllmmetrics.a` is linked into the program instead (a library built with
//! `-Ddefault_library=static` or `both`), with `pkg-config --static` (its private `-lm
//! -pthread`), or with `-lm -lpthread` after `LLMMETRICS_LIB_DIR`; the build fails with a
//! message when no archive is there. `LLMMETRICS_STATIC=0` asks for the shared library even
//! with the feature on.
//!
//! The directory found is passed to dependent build scripts as `DEP_LLMMETRICS_LIB_DIR`
//! (and the header directories as `DEP_LLMMETRICS_INCLUDE`, separated like `PATH`).
//! Running a program linked with the shared library needs the library on the loader's path
//! (`LD_LIBRARY_PATH` for a build tree or a custom prefix, or an rpath).

use std::env;
use std::ffi::OsString;
use std::path::Path;
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
        "LLMMETRICS_STATIC",
    ] {
        println!("cargo:rerun-if-env-changed={}", var);
    }

    let link = Link::wanted();
    if let Some(dir) = env::var_os("LLMMETRICS_LIB_DIR").filter(|d| !d.is_empty()) {
        let dir = dir.to_string_lossy().into_owned();
        println!("cargo:rustc-link-search=native={}", dir);
        link.library(&[dir.clone()]);
        if link == Link::Static {
            println!("cargo:rustc-link-lib=dylib=m");
            println!("cargo:rustc-link-lib=dylib=pthread");
        }
        println!("cargo:lib_dir={}", dir);
        return;
    }

    match probe_pkg_config(link) {
        Ok(()) => {}
        Err(why) => {
            println!(
                "cargo:warning=llmmetrics-sys: {}; linking -lllmmetrics from the default paths \
                 (set LLMMETRICS_LIB_DIR or PKG_CONFIG_PATH)",
                why
            );
            println!("cargo:rustc-link-lib={}=llmmetrics", link.kind());
        }
    }
}

/// How libllmmetrics is linked.
#[derive(Clone, Copy, PartialEq)]
enum Link {
    Shared,
    Static,
}

impl Link {
    /// Static with the feature `static` or `LLMMETRICS_STATIC=1`; `LLMMETRICS_STATIC=0` wins.
    fn wanted() -> Link {
        match env::var("LLMMETRICS_STATIC").as_deref() {
            Ok("1") => Link::Static,
            Ok("0") => Link::Shared,
            _ if env::var_os("CARGO_FEATURE_STATIC").is_some() => Link::Static,
            _ => Link::Shared,
        }
    }

    fn kind(self) -> &'static str {
        match self {
            Link::Shared => "dylib",
            Link::Static => "static",
        }
    }

    /// Link the library itself; static: only if an archive is in one of `dirs`.
    fn library(self, dirs: &[String]) {
        if self == Link::Static
            && !dirs.iter().any(|d| Path::new(d).join("libllmmetrics.a").is_file())
        {
            panic!(
                "llmmetrics-sys: static linking asked for (feature `static` or \
                 LLMMETRICS_STATIC=1) but there is no libllmmetrics.a in {:?}: build the \
                 library with -Ddefault_library=static or both",
                dirs
            );
        }
        println!("cargo:rustc-link-lib={}=llmmetrics", self.kind());
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

fn probe_pkg_config(link: Link) -> Result<(), String> {
    let version = run_pkg_config(&["--modversion", "llmmetrics"])?;
    let version = version.trim();
    if version.split('.').next() != Some(REQUIRED_MAJOR) {
        // A different major version is a different ABI: refuse rather than mislink.
        panic!(
            "llmmetrics-sys needs libllmmetrics {}.x, pkg-config found {}",
            REQUIRED_MAJOR, version
        );
    }
    let mut args = vec!["--libs", "--cflags"];
    if link == Link::Static {
        args.push("--static");
    }
    args.push("llmmetrics");
    let flags = run_pkg_config(&args)?;
    let mut lib_dirs = Vec::new();
    let mut include_dirs = Vec::new();
    let mut others = Vec::new();
    for token in flags.split_whitespace() {
        if let Some(dir) = token.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
            lib_dirs.push(dir.to_string());
        } else if let Some(name) = token.strip_prefix("-l") {
            if name != "llmmetrics" {
                others.push(name.to_string());
            }
        } else if token == "-pthread" {
            others.push("pthread".to_string());
        } else if let Some(dir) = token.strip_prefix("-I") {
            include_dirs.push(dir.to_string());
        }
    }
    link.library(&lib_dirs);
    for name in others {
        println!("cargo:rustc-link-lib={}", name);
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
