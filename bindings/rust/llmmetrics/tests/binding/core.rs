//! Errors, versions, linkage and the Send / Sync contract.

use std::ffi::CStr;
use std::path::{Path, PathBuf};

use llmmetrics::sys;
use llmmetrics::*;

#[test]
fn every_status_maps_to_its_kind_name_and_message() {
    let table = [
        (sys::LLMM_E_INVALID, ErrorKind::Invalid, "LLMM_E_INVALID", "invalid argument"),
        (sys::LLMM_E_NOMEM, ErrorKind::NoMem, "LLMM_E_NOMEM", "out of memory"),
        (sys::LLMM_E_RANGE, ErrorKind::Range, "LLMM_E_RANGE", "value outside the configured range"),
        (sys::LLMM_E_EMPTY, ErrorKind::Empty, "LLMM_E_EMPTY", "no data"),
        (
            sys::LLMM_E_CORRUPT,
            ErrorKind::Corrupt,
            "LLMM_E_CORRUPT",
            "damaged or truncated encoding",
        ),
        (sys::LLMM_E_VERSION, ErrorKind::Version, "LLMM_E_VERSION", "unknown format version"),
        (sys::LLMM_E_BUFFER, ErrorKind::Buffer, "LLMM_E_BUFFER", "buffer too small"),
        (
            sys::LLMM_E_UNKNOWN_OPTION,
            ErrorKind::UnknownOption,
            "LLMM_E_UNKNOWN_OPTION",
            "unknown option",
        ),
        (
            sys::LLMM_E_STATE,
            ErrorKind::State,
            "LLMM_E_STATE",
            "call not valid in the current state",
        ),
        (
            sys::LLMM_E_NOT_CONVERGED,
            ErrorKind::NotConverged,
            "LLMM_E_NOT_CONVERGED",
            "iteration did not converge",
        ),
        (sys::LLMM_E_ABI, ErrorKind::Abi, "LLMM_E_ABI", "struct_size not understood"),
    ];
    for (code, kind, name, message) in table {
        let e = Error::from_code(code);
        assert_eq!((e.code(), e.kind(), e.name(), e.message()), (code, kind, name, message));
        assert_eq!(e.to_string(), format!("{} ({}, {})", message, name, code));
    }
    let unknown = Error::from_code(-4242);
    assert_eq!(unknown.kind(), ErrorKind::Unknown);
    assert_eq!(unknown.name(), "LLMM_E_UNKNOWN_STATUS");
    let boxed: Box<dyn std::error::Error> = Box::new(Error::from_code(sys::LLMM_E_EMPTY));
    assert_eq!(boxed.to_string(), "no data (LLMM_E_EMPTY, -4)");
}

#[test]
fn version_matches_the_raw_calls() {
    assert_eq!(version(), unsafe { sys::llmm_version() });
    assert_eq!(version() / 10000, sys::LLMM_VERSION_MAJOR);
    let raw = unsafe { CStr::from_ptr(sys::llmm_version_string()) }.to_str().unwrap();
    assert_eq!(version_string(), raw);
    let a = now_ns();
    let b = now_ns();
    assert!(b >= a);
}

#[repr(C)]
struct DlInfo {
    fname: *const sys::c_char,
    fbase: *mut sys::c_void,
    sname: *const sys::c_char,
    saddr: *mut sys::c_void,
}

extern "C" {
    fn dladdr(addr: *const sys::c_void, info: *mut DlInfo) -> sys::c_int;
}

/// The file the dynamic loader actually mapped for libllmmetrics.
fn loaded_library() -> PathBuf {
    let mut info = DlInfo {
        fname: std::ptr::null(),
        fbase: std::ptr::null_mut(),
        sname: std::ptr::null(),
        saddr: std::ptr::null_mut(),
    };
    let f: unsafe extern "C" fn() -> u32 = sys::llmm_version;
    assert_ne!(unsafe { dladdr(f as *const sys::c_void, &mut info) }, 0);
    assert!(!info.fname.is_null());
    let name = unsafe { CStr::from_ptr(info.fname) }.to_str().unwrap();
    Path::new(name).canonicalize().unwrap()
}

#[test]
fn the_library_under_test_is_the_expected_one() {
    let lib = loaded_library();
    assert!(
        lib.file_name().unwrap().to_str().unwrap().starts_with("libllmmetrics.so"),
        "{}",
        lib.display()
    );
    // meson sets this to the build tree's lib/ so that an installed copy cannot stand in.
    match std::env::var_os("LLMMETRICS_TEST_LIB_DIR") {
        Some(dir) if !dir.is_empty() => {
            let want = Path::new(&dir).canonicalize().unwrap();
            assert_eq!(lib.parent().unwrap(), want, "loaded {}", lib.display());
        }
        _ => eprintln!("LLMMETRICS_TEST_LIB_DIR unset; loaded {}", lib.display()),
    }
}

fn send<T: Send>() {}
fn sync<T: Sync>() {}

#[test]
fn send_and_sync_follow_the_c_contract() {
    send::<Context>();
    sync::<Context>();
    send::<Sketch>();
    sync::<Sketch>();
    send::<Recorder>();
    sync::<Recorder>();
    send::<Shard<'static>>();
    send::<Scorecard>();
    sync::<Scorecard>();
    send::<LiiMonitor>();
    sync::<LiiMonitor>();
    send::<Error>();
    sync::<Error>();
    // Shard is not Sync and cannot outlive its recorder: compile_fail examples in its rustdoc.
}
