package llmmetrics

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func sameSketch(t *testing.T, a, b *Sketch) {
	t.Helper()
	if a.Count() != b.Count() || a.Scale() != b.Scale() || a.Sum() != b.Sum() {
		t.Fatalf("count %d/%d scale %d/%d sum %v/%v", a.Count(), b.Count(), a.Scale(), b.Scale(), a.Sum(), b.Sum())
	}
	alo, ahi, _ := a.Range()
	blo, bhi, _ := b.Range()
	az, au, ao, _ := a.SpecialCounts()
	bz, bu, bo, _ := b.SpecialCounts()
	if alo != blo || ahi != bhi || az != bz || au != bu || ao != bo {
		t.Fatalf("range or special counts differ")
	}
	aoff, ac, _ := a.Buckets()
	boff, bc, _ := b.Buckets()
	if aoff != boff || len(ac) != len(bc) {
		t.Fatalf("bucket spans differ")
	}
	for i := range ac {
		if ac[i] != bc[i] {
			t.Fatalf("bucket %d: %d vs %d", aoff+i, ac[i], bc[i])
		}
	}
	if a.Count() > 0 {
		amin, _ := a.Min()
		bmin, _ := b.Min()
		amax, _ := a.Max()
		bmax, _ := b.Max()
		if amin != bmin || amax != bmax {
			t.Fatalf("extremes differ")
		}
	}
}

func TestSketchBinaryRoundTrip(t *testing.T) {
	s, err := NewSketch(4)
	mustOK(t, err)
	defer s.Close()
	mustOK(t, s.SetRange(1e-3, 1e3))
	mustOK(t, s.AddMany(lognormal(41, 5000, 0.2, 1.5)))
	mustOK(t, s.AddMany([]float64{0, 0, 1e-9, 5e3}))
	data, err := s.MarshalBinary()
	mustOK(t, err)

	var zero Sketch // a zero Sketch decodes (as encoding/gob and friends use it)
	mustOK(t, zero.UnmarshalBinary(data))
	defer zero.Close()
	sameSketch(t, s, &zero)
	again, err := zero.MarshalBinary()
	mustOK(t, err)
	if !bytes.Equal(again, data) {
		t.Error("re-encoding differs")
	}

	d, err := DecodeSketch(data)
	mustOK(t, err)
	defer d.Close()
	sameSketch(t, s, d)
	q1, _ := s.Quantiles(probes)
	q2, _ := d.Quantiles(probes)
	for i := range q1 {
		if q1[i] != q2[i] {
			t.Errorf("q=%v: %v vs %v", probes[i], q1[i], q2[i])
		}
	}

	// An open sketch is replaced; a failed decode leaves it as it was.
	other := testSketch(t)
	mustOK(t, other.Add(7))
	wantStatus(t, other.UnmarshalBinary(data[:len(data)-1]), ErrCorrupt)
	wantStatus(t, other.UnmarshalBinary(nil), ErrCorrupt)
	if other.Count() != 1 || other.Scale() != ScaleDefault {
		t.Fatal("failed decode changed the sketch")
	}
	mustOK(t, other.UnmarshalBinary(data))
	sameSketch(t, s, other)

	// encoding/gob goes through the BinaryMarshaler pair.
	type record struct {
		Model   string
		Latency *Sketch
	}
	var buf bytes.Buffer
	mustOK(t, gob.NewEncoder(&buf).Encode(record{"m", s}))
	var back record
	mustOK(t, gob.NewDecoder(&buf).Decode(&back))
	defer back.Latency.Close()
	if back.Model != "m" {
		t.Fatal("gob lost a field")
	}
	sameSketch(t, s, back.Latency)

	var closed Sketch
	_, err = closed.MarshalBinary()
	wantStatus(t, err, ErrState)
}

// Every single-bit flip, every truncation and any trailing byte is refused.
func TestSketchBinaryDamage(t *testing.T) {
	s := testSketch(t)
	mustOK(t, s.AddMany([]float64{0.1, 0.2, 0.2, 3, 0}))
	data, err := s.MarshalBinary()
	mustOK(t, err)
	for i := range data {
		for bit := 0; bit < 8; bit++ {
			bad := append([]byte(nil), data...)
			bad[i] ^= 1 << bit
			if _, err := DecodeSketch(bad); !errorsIsCorruptOrVersion(err) {
				t.Fatalf("flip of byte %d bit %d: %v", i, bit, err)
			}
		}
	}
	for n := 0; n < len(data); n++ {
		_, err := DecodeSketch(data[:n])
		wantStatus(t, err, ErrCorrupt)
	}
	_, err = DecodeSketch(append(append([]byte(nil), data...), 0))
	wantStatus(t, err, ErrCorrupt)
}

func errorsIsCorruptOrVersion(err error) bool {
	e, ok := err.(*Error)
	return ok && (e.Status == StatusCorrupt || e.Status == StatusVersion)
}

// The committed golden encodings of format version 1 decode to exactly what the library read
// in them when they were written (tests/data/golden/*.txt).
func TestSketchGoldenFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(sourceRoot(t), "tests", "data", "golden", "*.llmms"))
	mustOK(t, err)
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".llmms")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			mustOK(t, err)
			s, err := DecodeSketch(data)
			mustOK(t, err)
			defer s.Close()
			checkGolden(t, s, strings.TrimSuffix(f, ".llmms")+".txt")
			again, err := s.MarshalBinary()
			mustOK(t, err)
			if !bytes.Equal(again, data) {
				t.Error("re-encoding differs from the golden file")
			}
		})
	}
}

func checkGolden(t *testing.T, s *Sketch, path string) {
	t.Helper()
	f, err := os.Open(path)
	mustOK(t, err)
	defer f.Close()
	num := func(field string) float64 {
		v, err := strconv.ParseFloat(field, 64) // hex floats included
		mustOK(t, err)
		return v
	}
	buckets := map[int]uint64{}
	checked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		var got, want float64
		switch fields[0] {
		case "scale":
			got, want = float64(s.Scale()), num(fields[1])
		case "range":
			lo, hi, _ := s.Range()
			if lo != num(fields[1]) || hi != num(fields[2]) {
				t.Errorf("range %v %v, golden %s", lo, hi, sc.Text())
			}
			continue
		case "count":
			got, want = float64(s.Count()), num(fields[1])
		case "zero", "under", "over":
			z, u, o, _ := s.SpecialCounts()
			got = float64(map[string]uint64{"zero": z, "under": u, "over": o}[fields[0]])
			want = num(fields[1])
		case "min":
			got, _ = s.Min()
			want = num(fields[1])
		case "max":
			got, _ = s.Max()
			want = num(fields[1])
		case "sum":
			got, want = s.Sum(), num(fields[1])
		case "bucket":
			i, _ := strconv.Atoi(fields[1])
			n, _ := strconv.ParseUint(fields[2], 10, 64)
			buckets[i] = n
			continue
		case "quantile": // the answer when written, to rounding (as tests/codec does)
			q, _ := s.Quantile(num(fields[1]))
			if !withinRel(q, num(fields[2]), 1e-12) {
				t.Errorf("q=%s: %v, golden %s", fields[1], q, fields[2])
			}
			checked++
			continue
		case "exact":
			q, _ := s.Quantile(num(fields[1]))
			if !withinRel(q, num(fields[2]), RelativeError(s.Scale())) {
				t.Errorf("q=%s: %v, exact %s", fields[1], q, fields[2])
			}
			checked++
			continue
		default:
			continue
		}
		checked++
		if got != want {
			t.Errorf("%s: got %v, golden %v", fields[0], got, want)
		}
	}
	mustOK(t, sc.Err())
	off, counts, err := s.Buckets()
	mustOK(t, err)
	nonEmpty := 0
	for i, c := range counts {
		if c != 0 {
			nonEmpty++
			if buckets[off+i] != c {
				t.Errorf("bucket %d: %d, golden %d", off+i, c, buckets[off+i])
			}
		}
	}
	if nonEmpty != len(buckets) || checked < 6 {
		t.Errorf("%d non-empty buckets, golden %d; %d lines checked", nonEmpty, len(buckets), checked)
	}
}

// DecodeSketchChecked on the two snapshots the real 1.0 recorder wrote with its extreme bug
// (tests/data/v1_0): DecodeSketch refuses them as 1.1 does; the checked call repairs them.
// A breach of another rule behind an intact checksum is refused with that rule named.
func TestDecodeSketchCheckedReadsWhat10Wrote(t *testing.T) {
	const rel = 0.00542 // scale 6
	for _, c := range []struct {
		file       string
		fixedIsMax bool
		want, msg  float64
	}{
		{"v1_0_max_below_buckets.llmm", true, 0.75, 1e-6},
		{"v1_0_min_above_buckets.llmm", false, 0.25, 1e6},
	} {
		data, err := os.ReadFile(filepath.Join(sourceRoot(t), "tests", "data", "v1_0", c.file))
		mustOK(t, err)
		if _, err := DecodeSketch(data); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s: DecodeSketch: %v, want ErrCorrupt", c.file, err)
		}
		s, info, err := DecodeSketchChecked(data)
		mustOK(t, err)
		want := DecodeInfo{Intact: true, Version: 1, Rule: 6, Repaired: true, MessageMin: c.msg, MessageMax: c.msg}
		if info != want {
			t.Fatalf("%s: info %+v, want %+v", c.file, info, want)
		}
		mn, _ := s.Min()
		mx, _ := s.Max()
		fixed, kept := mn, mx
		if c.fixedIsMax {
			fixed, kept = mx, mn
		}
		if s.Count() != 101 || math.Abs(fixed-c.want) > c.want*rel || kept != c.msg {
			t.Fatalf("%s: count %d, min %v, max %v", c.file, s.Count(), mn, mx)
		}
		again, err := s.MarshalBinary()
		mustOK(t, err)
		strict, err := DecodeSketch(again) // the repaired sketch encodes to a valid message
		mustOK(t, err)
		strict.Close()
		s.Close()
	}
	data, err := os.ReadFile(filepath.Join(sourceRoot(t), "tests", "data", "v1_0", "v1_0_max_below_buckets.llmm"))
	mustOK(t, err)
	binary.LittleEndian.PutUint64(data[38:46], math.Float64bits(-1)) // the sum: rule 7
	binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], crc32.MakeTable(crc32.Castagnoli)))
	_, info, err := DecodeSketchChecked(data)
	if !errors.Is(err, ErrCorrupt) || info.Rule != 7 || !info.Intact || !strings.Contains(err.Error(), "rule 7") {
		t.Fatalf("negative sum: %v, %+v", err, info)
	}
	data[20] ^= 1
	if _, info, err = DecodeSketchChecked(data); !errors.Is(err, ErrCorrupt) || info != (DecodeInfo{}) {
		t.Fatalf("damaged: %v, %+v", err, info)
	}
}
