//! The binary form: round trips, the C library's bytes, damage detection, and the committed
//! golden encodings of format version 1 (tests/data/golden) read to the recorded values.

use std::path::PathBuf;
use std::ptr;

use llmmetrics::sys;
use llmmetrics::*;

use crate::support::*;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/data/golden")
}

/// A C99 hex float such as `-0x1.8p-3` (Rust's std cannot parse them).
fn hex_float(s: &str) -> f64 {
    let (neg, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    if s == "inf" || s == "infinity" {
        return if neg { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    let s = s.strip_prefix("0x").unwrap_or_else(|| panic!("not a hex float: {}", s));
    let (mant, exp) = s.split_at(s.find('p').unwrap());
    let exp: i32 = exp[1..].parse().unwrap();
    let (int, frac) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    let digits = u64::from_str_radix(&format!("{}{}", int, frac), 16).unwrap();
    let e = exp - 4 * frac.len() as i32;
    // Two steps keep subnormal results exact (digits has at most 53 significant bits).
    let v = digits as f64 * 2f64.powi(e / 2) * 2f64.powi(e - e / 2);
    if neg {
        -v
    } else {
        v
    }
}

fn close(got: f64, want: f64, rel: f64, what: &str) {
    if want == 0.0 {
        assert_eq!(got, 0.0, "{}", what);
    } else {
        assert_rel(got, want, rel * (1.0 + 1e-12), what);
    }
}

#[test]
fn hex_float_parser_is_exact() {
    assert_eq!(hex_float("0x1p+0"), 1.0);
    assert_eq!(hex_float("0x1.8p-1"), 0.75);
    assert_eq!(hex_float("-0x1.999999999999ap-4"), -0.1);
    assert_eq!(hex_float("0x0p+0"), 0.0);
    assert_eq!(hex_float("0x1p-1074"), f64::from_bits(1));
    assert_eq!(hex_float("0x1.fffffffffffffp+1023"), f64::MAX);
}

#[test]
fn golden_encodings_read_to_the_recorded_values() {
    let mut names: Vec<String> = std::fs::read_dir(golden_dir())
        .expect("tests/data/golden")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".llmms"))
        .collect();
    names.sort();
    assert!(names.len() >= 3, "{:?}", names);
    for name in names {
        let bytes = std::fs::read(golden_dir().join(&name)).unwrap();
        let txt =
            std::fs::read_to_string(golden_dir().join(name.replace(".llmms", ".txt"))).unwrap();
        let s = Sketch::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {}", name, e));
        let mut buckets = Vec::new();
        let mut checked = 0;
        for line in txt.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split_whitespace().collect();
            match f.as_slice() {
                ["scale", v] => assert_eq!(s.scale(), v.parse::<i32>().unwrap(), "{}", name),
                ["range", lo, hi] => {
                    assert_eq!(s.range(), (hex_float(lo), hex_float(hi)), "{}", name)
                }
                ["count", v] => assert_eq!(s.count(), v.parse::<u64>().unwrap(), "{}", name),
                ["zero", v] => assert_eq!(s.special_counts().zero, v.parse::<u64>().unwrap()),
                ["under", v] => assert_eq!(s.special_counts().under, v.parse::<u64>().unwrap()),
                ["over", v] => assert_eq!(s.special_counts().over, v.parse::<u64>().unwrap()),
                ["min", v] => {
                    assert_eq!(s.min().unwrap().to_bits(), hex_float(v).to_bits(), "{}", name)
                }
                ["max", v] => {
                    assert_eq!(s.max().unwrap().to_bits(), hex_float(v).to_bits(), "{}", name)
                }
                ["sum", v] => assert_eq!(s.sum().to_bits(), hex_float(v).to_bits(), "{}", name),
                ["bucket", i, c] => {
                    buckets.push((i.parse::<i32>().unwrap(), c.parse::<u64>().unwrap()))
                }
                // The answer when the file was written, to 1e-12 (representative values may
                // be computed in another order by a later version), as the C golden test does.
                ["quantile", q, v] => {
                    close(s.quantile(hex_float(q)).unwrap(), hex_float(v), 1e-12, &name)
                }
                // The recorded data's exact quantile, within the scale's guarantee.
                ["exact", q, v] => close(
                    s.quantile(hex_float(q)).unwrap(),
                    hex_float(v),
                    relative_error(s.scale()),
                    &name,
                ),
                _ => continue,
            }
            checked += 1;
        }
        assert!(checked >= 4, "{}: only {} lines checked", name, checked);
        assert_eq!(s.buckets().collect::<Vec<_>>(), buckets, "{}", name);
        // Decoding and re-encoding gives the same bytes.
        assert_eq!(s.to_bytes().unwrap(), bytes, "{}", name);
    }
}

#[test]
fn round_trip_and_the_c_bytes() {
    let data = lognormal_data(71, 10_000, 0.2, 1.0);
    let mut s = Sketch::with_scale(7).unwrap();
    s.set_range(1e-6, 1e6).unwrap();
    s.add_many(&data).unwrap();
    s.add_many(&[0.0, 1e-9, 1e9]).unwrap();
    let bytes = s.to_bytes().unwrap();
    assert_eq!(bytes.len(), s.serialized_len());
    let mut raw = vec![0u8; bytes.len()];
    let mut len = 0usize;
    assert_eq!(
        unsafe { sys::llmm_sketch_serialize(s.as_ptr(), raw.as_mut_ptr(), raw.len(), &mut len) },
        0
    );
    assert_eq!((len, &raw[..]), (bytes.len(), &bytes[..]));
    let t = Sketch::from_bytes(&bytes).unwrap();
    assert_eq!((t.scale(), t.range(), t.count()), (7, (1e-6, 1e6), s.count()));
    assert_eq!(t.special_counts(), s.special_counts());
    assert_eq!(t.sum().to_bits(), s.sum().to_bits());
    assert_eq!(t.quantiles(&QS).unwrap(), s.quantiles(&QS).unwrap());
    assert_eq!(t.buckets().collect::<Vec<_>>(), s.buckets().collect::<Vec<_>>());
    let mut short = vec![0u8; bytes.len() - 1];
    assert_eq!(s.serialize_into(&mut short).unwrap_err().kind(), ErrorKind::Buffer);
    assert!(short.iter().all(|&b| b == 0), "untouched on error");
    let mut big = vec![0u8; bytes.len() + 10];
    assert_eq!(s.serialize_into(&mut big).unwrap(), bytes.len());
    let ctx = Context::with_allocator(RustAllocator).unwrap();
    assert!(Sketch::from_bytes_with_context(&ctx, &bytes).unwrap().context().is_some());
    let mut p = ptr::null_mut();
    assert_eq!(
        unsafe {
            sys::llmm_sketch_deserialize(ptr::null_mut(), bytes.as_ptr(), bytes.len(), &mut p)
        },
        0
    );
    unsafe { sys::llmm_sketch_free(p) };
}

#[test]
fn damage_is_always_detected() {
    let mut s = Sketch::new().unwrap();
    s.add_many(&lognormal_data(72, 500, 0.2, 1.0)).unwrap();
    let bytes = s.to_bytes().unwrap();
    for i in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut d = bytes.clone();
            d[i] ^= bit;
            let e = Sketch::from_bytes(&d).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::Corrupt | ErrorKind::Version),
                "byte {}: {}",
                i,
                e
            );
        }
    }
    for n in 0..bytes.len() {
        assert_eq!(
            Sketch::from_bytes(&bytes[..n]).unwrap_err().kind(),
            ErrorKind::Corrupt,
            "truncated to {}",
            n
        );
    }
    let mut long = bytes.clone();
    long.push(0);
    assert_eq!(Sketch::from_bytes(&long).unwrap_err().kind(), ErrorKind::Corrupt);
    assert_eq!(SKETCH_FORMAT_VERSION, 1);
}

fn v1_0_file(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/data/v1_0").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {}", p.display(), e))
}

/// `decode_checked` on the two snapshots the real 1.0 recorder wrote with its extreme bug
/// (tests/data/v1_0): `from_bytes` refuses them as 1.1 does; the checked call repairs them,
/// and a breach of another rule behind an intact checksum is refused with that rule named.
#[test]
fn decode_checked_reads_what_1_0_wrote() {
    const REL: f64 = 0.00542; // scale 6
    for (name, fixed_is_max, want, message) in [
        ("v1_0_max_below_buckets.llmm", true, 0.75, 1e-6),
        ("v1_0_min_above_buckets.llmm", false, 0.25, 1e6),
    ] {
        let data = v1_0_file(name);
        assert_eq!(Sketch::from_bytes(&data).unwrap_err().kind(), ErrorKind::Corrupt, "{}", name);
        let (s, info) = Sketch::decode_checked(&data);
        let s = s.unwrap();
        assert_eq!(
            info,
            DecodeInfo {
                intact: true,
                version: 1,
                rule: 6,
                repaired: true,
                message_min: message,
                message_max: message
            }
        );
        let (mn, mx) = (s.min().unwrap(), s.max().unwrap());
        let (fixed, kept) = if fixed_is_max { (mx, mn) } else { (mn, mx) };
        assert_eq!(s.count(), 101);
        assert!((fixed - want).abs() <= want * REL, "{}: {} vs {}", name, fixed, want);
        assert_eq!(kept, message);
        // the repaired sketch encodes to a message the strict reader accepts
        Sketch::from_bytes(&s.to_bytes().unwrap()).unwrap();
    }
    let mut data = v1_0_file("v1_0_max_below_buckets.llmm");
    data[38..46].copy_from_slice(&(-1.0f64).to_le_bytes()); // the sum: rule 7
    let n = data.len();
    let crc = crc32c(&data[..n - 4]);
    data[n - 4..].copy_from_slice(&crc.to_le_bytes());
    let (r, info) = Sketch::decode_checked(&data);
    assert_eq!(r.unwrap_err().kind(), ErrorKind::Corrupt);
    assert_eq!((info.rule, info.intact, info.repaired), (7, true, false));
    data[20] ^= 1; // behind the checksum
    let (r, info) = Sketch::decode_checked(&data);
    assert!(r.is_err());
    assert_eq!((info.intact, info.rule), (false, 0));
}

/// CRC-32C as doc/format.md specifies it (reflected 0x82F63B78, bitwise).
fn crc32c(data: &[u8]) -> u32 {
    let mut c = 0xFFFF_FFFFu32;
    for &b in data {
        c ^= b as u32;
        for _ in 0..8 {
            c = (c >> 1) ^ if c & 1 != 0 { 0x82F6_3B78 } else { 0 };
        }
    }
    !c
}
