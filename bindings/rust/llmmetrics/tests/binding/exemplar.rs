//! Exemplars and trace context: keep rules, writer threads through their own shards, the
//! OpenMetrics bytes equal to the C library's for the same calls, and the W3C example.

use std::ptr;

use llmmetrics::sys;
use llmmetrics::*;

const TP: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

fn id(k: u64) -> [u8; 16] {
    let mut t = [0u8; 16];
    t[..8].copy_from_slice(&(k | 1 << 63).to_be_bytes());
    t
}

#[test]
fn latest_max_and_threads() {
    let ex = Exemplars::new(&[1.0, 2.0], ExemplarKeep::Latest).unwrap();
    assert_eq!(ex.slots(), 3);
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let mut sh = ex.shard().unwrap();
            s.spawn(move || {
                for i in 0..1000u64 {
                    let k = i * 4 + t + 1;
                    let e = Exemplar {
                        value: 1.5,
                        trace_id: id(k),
                        time_unix_nano: k,
                        ..Default::default()
                    };
                    sh.record(&e).unwrap();
                }
            });
        }
    });
    let e = ex.get(1).unwrap().unwrap();
    assert_eq!((e.time_unix_nano, e.trace_id, e.span_id), (4000, id(4000), [0; 8]));
    assert!(ex.get(0).unwrap().is_none());
    assert!(ex.get(3).is_err());
    let bad = Exemplar { value: f64::NAN, ..Default::default() };
    assert_eq!(ex.shard().unwrap().record(&bad).unwrap_err().kind(), ErrorKind::Invalid);

    let mx = Exemplars::new(&[], ExemplarKeep::Max).unwrap();
    let mut sh = mx.shard().unwrap();
    for v in [5.0, 3.0, 7.0, 6.0] {
        sh.record(&Exemplar { value: v, ..Default::default() }).unwrap();
    }
    assert_eq!(mx.get(0).unwrap().unwrap().value, 7.0);
    mx.roll().unwrap();
    sh.record(&Exemplar { value: 2.0, ..Default::default() }).unwrap();
    assert_eq!(mx.get(0).unwrap().unwrap().value, 2.0);
    assert!(Exemplars::new(&[2.0, 1.0], ExemplarKeep::Latest).is_err());
}

#[test]
fn openmetrics_same_bytes_as_c() {
    let bounds = [0.1, 0.5, 1.0];
    let mut s = Sketch::new().unwrap();
    s.add_many(&[0.05, 0.3, 0.7, 2.0]).unwrap();
    let ex = Exemplars::new(&bounds, ExemplarKeep::Latest).unwrap();
    {
        let mut sh = ex.shard().unwrap();
        for (i, v) in [0.05, 0.3, 0.7, 2.0].iter().enumerate() {
            let e = Exemplar {
                value: *v,
                trace_id: id(i as u64),
                span_id: [7; 8],
                time_unix_nano: 1_733_300_000_000_000_000 + i as u64,
                labels: "m=\"x\"".into(),
            };
            sh.record(&e).unwrap();
        }
    }
    let counter = ex.get(1).unwrap().unwrap();
    let mut w = PromWriter::new(PromFormat::OpenMetrics).unwrap();
    w.family("lat_seconds", Some("h"), PromType::Histogram, &bounds).unwrap();
    w.sketch_exemplars(None, &s, 1.0, Some(&ex)).unwrap();
    w.family("req_total", None, PromType::Counter, &[]).unwrap();
    w.value_exemplar(None, 4.0, Some(&counter)).unwrap();
    let ours = w.finish().unwrap();

    // the same through the C calls directly
    let mut out = ptr::null_mut();
    let names = ["lat_seconds", "h", "req_total"].map(|n| std::ffi::CString::new(n).unwrap());
    let mut raw = vec![0u8; 4096];
    let mut len = 0usize;
    unsafe {
        assert_eq!(
            sys::llmm_prom_writer_new(ptr::null_mut(), sys::LLMM_PROM_OPENMETRICS, &mut out),
            0
        );
        assert_eq!(
            sys::llmm_prom_writer_family(
                out,
                names[0].as_ptr(),
                names[1].as_ptr(),
                sys::LLMM_PROM_HISTOGRAM,
                bounds.as_ptr(),
                3
            ),
            0
        );
        assert_eq!(
            sys::llmm_prom_writer_sketch_exemplars(out, ptr::null(), s.as_ptr(), 1.0, ex.as_ptr()),
            0
        );
        assert_eq!(
            sys::llmm_prom_writer_family(
                out,
                names[2].as_ptr(),
                ptr::null(),
                sys::LLMM_PROM_COUNTER,
                ptr::null(),
                0
            ),
            0
        );
        let mut e: sys::llmm_exemplar = std::mem::zeroed();
        assert_eq!(
            sys::llmm_struct_init(
                sys::LLMM_STRUCT_EXEMPLAR,
                &mut e as *mut _ as *mut sys::c_void,
                std::mem::size_of::<sys::llmm_exemplar>() as u32
            ),
            0
        );
        assert_eq!(sys::llmm_exemplars_get(ex.as_ptr(), 1, &mut e), 0);
        assert_eq!(sys::llmm_prom_writer_value_exemplar(out, ptr::null(), 4.0, &e), 0);
        assert_eq!(sys::llmm_prom_writer_finish(out, raw.as_mut_ptr(), raw.len(), &mut len), 0);
        sys::llmm_prom_writer_free(out);
    }
    raw.truncate(len);
    assert_eq!(ours, raw);
    let text = String::from_utf8(ours).unwrap();
    assert!(text.contains("lat_seconds_bucket{le=\"0.5\"} 2 # {trace_id=\"8000000000000001"));
    assert!(text.contains(",span_id=\"0707070707070707\",m=\"x\"} 0.3 1733300000.000000001\n"));
    assert!(text.contains("# TYPE req counter\nreq_total 4 # {"));
    assert!(text.ends_with("# EOF\n"));
    let (f, ct) =
        prom_negotiate_openmetrics(Some("application/openmetrics-text;version=1.0.0")).unwrap();
    assert_eq!((f, ct), (PromFormat::OpenMetrics, PromFormat::OpenMetrics.content_type()));
    assert_eq!(
        prom_negotiate(Some("application/openmetrics-text;version=1.0.0")).unwrap().0,
        PromFormat::Text
    );
}

#[test]
fn traceparent() {
    let (tr, sp, fl) = traceparent_parse(TP).unwrap();
    assert_eq!(tr[0], 0x4b);
    assert_eq!(sp, [0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7]);
    assert_eq!(fl, 1);
    assert_eq!(traceparent_format(&tr, &sp, fl).unwrap(), TP);
    for bad in [TP.to_uppercase(), format!("ff{}", &TP[2..]), format!("{}-x", TP)] {
        assert_eq!(traceparent_parse(&bad).unwrap_err().kind(), ErrorKind::Invalid);
    }
    assert!(traceparent_format(&[0; 16], &sp, 1).is_err());
}
