//! The error type: a C status code with its name and message.

use std::ffi::CStr;
use std::fmt;

use llmmetrics_sys as ffi;

/// `Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// What kind of failure an [`Error`] reports; one variant per `llmm_status` error code.
///
/// ```
/// use llmmetrics::{ErrorKind, Sketch};
///
/// let mut s = Sketch::new()?;
/// let err = s.add(f64::NAN).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Invalid);
/// assert_eq!(err.code(), -1);
/// assert_eq!(err.name(), "LLMM_E_INVALID");
/// assert_eq!(err.message(), "invalid argument");
/// # Ok::<(), llmmetrics::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `LLMM_E_INVALID`: bad argument (NaN, negative latency, unknown id, ...).
    Invalid,
    /// `LLMM_E_NOMEM`: the allocator failed; nothing was changed.
    NoMem,
    /// `LLMM_E_RANGE`: value outside a configured range.
    Range,
    /// `LLMM_E_EMPTY`: no data to answer from.
    Empty,
    /// `LLMM_E_CORRUPT`: damaged or truncated encoding.
    Corrupt,
    /// `LLMM_E_VERSION`: unknown format version.
    Version,
    /// `LLMM_E_BUFFER`: caller buffer too small.
    Buffer,
    /// `LLMM_E_UNKNOWN_OPTION`: option key not known to this object.
    UnknownOption,
    /// `LLMM_E_STATE`: call not valid in the object's current state.
    State,
    /// `LLMM_E_NOT_CONVERGED`: an iterative method did not converge.
    NotConverged,
    /// `LLMM_E_ABI`: a struct size or enum value this binding does not understand.
    Abi,
    /// A status code this binding does not know (from a newer library).
    Unknown,
}

/// A failed call: the `llmm_status` code, its symbolic name and its message, as the C library
/// reports them (`llmm_status_name()`, `llmm_strerror()`).
///
/// Errors detected on the Rust side before reaching the library (a metric name containing a
/// NUL byte, an output slice of the wrong length) use the code the C library gives the same
/// mistake, `LLMM_E_INVALID`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Error {
    code: i32,
    name: &'static str,
    message: &'static str,
}

fn static_str(p: *const ffi::c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // SAFETY: the library documents both strings as static, NUL-terminated and never NULL.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

impl Error {
    /// The error for a status code (any value; unknown codes get the library's generic name).
    pub fn from_code(code: i32) -> Error {
        // SAFETY: both calls accept any value and return static strings.
        let (name, message) = unsafe { (ffi::llmm_status_name(code), ffi::llmm_strerror(code)) };
        Error { code, name: static_str(name), message: static_str(message) }
    }

    /// The `llmm_status` value, e.g. `-1` for `LLMM_E_INVALID`.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// The symbolic name, e.g. `"LLMM_E_INVALID"`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The library's message, e.g. `"invalid argument"`.
    pub fn message(&self) -> &'static str {
        self.message
    }

    /// The kind, for matching.
    pub fn kind(&self) -> ErrorKind {
        match self.code {
            ffi::LLMM_E_INVALID => ErrorKind::Invalid,
            ffi::LLMM_E_NOMEM => ErrorKind::NoMem,
            ffi::LLMM_E_RANGE => ErrorKind::Range,
            ffi::LLMM_E_EMPTY => ErrorKind::Empty,
            ffi::LLMM_E_CORRUPT => ErrorKind::Corrupt,
            ffi::LLMM_E_VERSION => ErrorKind::Version,
            ffi::LLMM_E_BUFFER => ErrorKind::Buffer,
            ffi::LLMM_E_UNKNOWN_OPTION => ErrorKind::UnknownOption,
            ffi::LLMM_E_STATE => ErrorKind::State,
            ffi::LLMM_E_NOT_CONVERGED => ErrorKind::NotConverged,
            ffi::LLMM_E_ABI => ErrorKind::Abi,
            _ => ErrorKind::Unknown,
        }
    }

    pub(crate) fn invalid() -> Error {
        Error::from_code(ffi::LLMM_E_INVALID)
    }

    pub(crate) fn abi() -> Error {
        Error::from_code(ffi::LLMM_E_ABI)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("code", &self.code)
            .field("name", &self.name)
            .field("message", &self.message)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, {})", self.message, self.name, self.code)
    }
}

impl std::error::Error for Error {}

/// `Ok(())` for `LLMM_OK`, the error otherwise.
pub(crate) fn check(status: ffi::llmm_status) -> Result<()> {
    if status == ffi::LLMM_OK {
        Ok(())
    } else {
        Err(Error::from_code(status))
    }
}
