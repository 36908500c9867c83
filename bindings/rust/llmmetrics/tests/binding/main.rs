//! Integration tests of the safe crate, checked against the C library called directly through
//! `llmmetrics-sys` on the same data, against exact sorted nearest-rank references, and
//! against the closed-form values of doc/spec.md.

mod support;

mod capacity;
mod codec;
mod context;
mod core;
mod detect;
mod exemplar;
mod export;
mod fit;
mod host;
mod options;
mod otlp;
mod recorder;
mod resource;
mod score;
mod sketch;
mod slo;
mod spike;
mod window;
