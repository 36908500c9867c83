#!/usr/bin/python3
"""A minimal asyncio/aiohttp streaming client built the way vLLM's benchmark client works, to
compare `llmm bench` with it against the same `llmm sim` (bench/, issue 26).

Like vLLM's `bench serve` client: one shared aiohttp.ClientSession whose TCPConnector is limited
to the concurrency (keep-alive 60 s, connections reused), an asyncio.Semaphore for the
concurrency, every request created at once (request rate "inf"), a /v1/completions payload with
a token-ID prompt, "ignore_eos", "stream": true and "stream_options": {"include_usage": true},
an "x-request-id" header; the stream read with response.content.iter_any(), each read stripped,
decoded incrementally as UTF-8 and split on blank lines, "data: " removed, "[DONE]" skipped,
every message JSON-decoded; a timestamp from time.perf_counter_ns() per message with non-empty
"choices" (the first gives TTFT), the usage chunk giving the token counts.

What it reports: the client's CPU time (user + system, time.process_time) per streamed chunk
over the run, and, with --sim-log, its TTFT error: the time it saw each request's first chunk
(perf_counter is CLOCK_MONOTONIC on Linux) minus the time the simulator wrote it
(`first_chunk_ns` in `llmm sim --log`, the same clock on the same machine), at P50 / P99.

Run with Debian's interpreter (python3-aiohttp):
  llmm sim --port 8000 --log sim.jsonl &
  /usr/bin/python3 bench/py_stream_client.py --url http://127.0.0.1:8000 --concurrency 100 \\
      --num-requests 2000 --sim-log sim.jsonl [--cpu 1] [--json]
"""
import argparse
import asyncio
import codecs
import json
import math
import os
import sys
import time

import aiohttp


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", required=True, help="base URL of the server")
    p.add_argument("--concurrency", type=int, default=100)
    p.add_argument("--num-requests", type=int, default=1000)
    p.add_argument("--input-len", type=int, default=32, help="prompt length in token IDs")
    p.add_argument("--output-len", type=int, default=64, help="max_tokens (ignore_eos)")
    p.add_argument("--model", default="llmm-sim")
    p.add_argument("--sim-log", help="`llmm sim --log` file: report the TTFT error")
    p.add_argument("--cpu", type=int, help="pin this process to one CPU")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    return p.parse_args(argv)


class Outcome:
    __slots__ = ("request_id", "ok", "error", "ttft", "first_ns", "chunks", "output_tokens")

    def __init__(self, request_id):
        self.request_id = request_id
        self.ok = False
        self.error = ""
        self.ttft = None
        self.first_ns = None
        self.chunks = 0
        self.output_tokens = None


def messages(decoder, buffer, data):
    """Feed one read; yield the complete SSE messages, buffer keeps the rest (vLLM's way)."""
    buffer[0] += decoder.decode(data.strip())
    text = buffer[0]
    parts = text.split("\n\n")
    buffer[0] = parts.pop()
    for m in parts:
        yield m
    tail = buffer[0]  # a last message with no blank line yet: emit it if it is whole
    if tail.startswith("data: "):
        body = tail[6:]
        if body == "[DONE]":
            buffer[0] = ""
            yield tail
        else:
            try:
                json.loads(body)
            except ValueError:
                return
            buffer[0] = ""
            yield tail


async def one(session, url, payload, request_id, sem):
    out = Outcome(request_id)
    async with sem:
        headers = {"x-request-id": request_id}
        st = time.perf_counter_ns()
        try:
            async with session.post(url, json=payload, headers=headers) as resp:
                if resp.status != 200:
                    out.error = "HTTP %d" % resp.status
                    return out
                decoder = codecs.getincrementaldecoder("utf-8")()
                buffer = [""]
                async for data in resp.content.iter_any():
                    for m in messages(decoder, buffer, data):
                        if m.startswith(":"):
                            continue
                        m = m[6:] if m.startswith("data: ") else m
                        if m == "[DONE]":
                            continue
                        t = time.perf_counter_ns()
                        chunk = json.loads(m)
                        if chunk.get("choices"):
                            if out.ttft is None:
                                out.ttft = (t - st) / 1e9
                                out.first_ns = t
                            out.chunks += 1
                        elif chunk.get("usage"):
                            out.output_tokens = chunk["usage"].get("completion_tokens")
                out.ok = out.ttft is not None
                if not out.ok:
                    out.error = "no chunk"
        except (aiohttp.ClientError, ValueError, asyncio.TimeoutError) as e:
            out.error = type(e).__name__
    return out


async def run(args):
    url = args.url.rstrip("/") + "/v1/completions"
    connector = aiohttp.TCPConnector(limit=args.concurrency, limit_per_host=args.concurrency,
                                     keepalive_timeout=60, enable_cleanup_closed=True,
                                     force_close=False)
    timeout = aiohttp.ClientTimeout(total=6 * 60 * 60)
    sem = asyncio.Semaphore(args.concurrency)
    payload = {"model": args.model, "prompt": list(range(1, args.input_len + 1)),
               "max_tokens": args.output_len, "ignore_eos": True, "stream": True,
               "stream_options": {"include_usage": True}}
    tag = "py-%d-" % os.getpid()
    async with aiohttp.ClientSession(connector=connector, timeout=timeout,
                                     trust_env=True) as session:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        tasks = [asyncio.create_task(one(session, url, payload, tag + str(i), sem))
                 for i in range(args.num_requests)]
        results = await asyncio.gather(*tasks)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return results, cpu, wall


def nearest_rank(sorted_v, q):
    if not sorted_v:
        return float("nan")
    return sorted_v[max(1, math.ceil(q * len(sorted_v) - 1e-9)) - 1]


def sim_first_chunks(path, ids, wait_s=5.0):
    """request_id -> first_chunk_ns from the simulator's log (waits for its lines)."""
    deadline = time.monotonic() + wait_s
    while True:
        found = {}
        with open(path) as f:
            for line in f:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue  # a line being written
                if rec.get("request_id") in ids and rec.get("first_chunk_ns"):
                    found[rec["request_id"]] = rec["first_chunk_ns"]
        if len(found) >= len(ids) or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def summarise(args, results, cpu, wall):
    ok = [r for r in results if r.ok]
    chunks = sum(r.chunks for r in ok)
    ttft = sorted(r.ttft * 1e3 for r in ok)
    s = {"client": "python-aiohttp", "concurrency": args.concurrency,
         "requests": len(results), "completed": len(ok), "failed": len(results) - len(ok),
         "chunks": chunks, "wall_s": wall, "cpu_s": cpu,
         "cpu_us_per_chunk": cpu / chunks * 1e6 if chunks else None,
         "ttft_ms": {"p50": nearest_rank(ttft, 0.5), "p99": nearest_rank(ttft, 0.99)}}
    errors = {}
    for r in results:
        if not r.ok:
            errors[r.error] = errors.get(r.error, 0) + 1
    s["errors"] = errors
    if args.sim_log:
        first = sim_first_chunks(args.sim_log, {r.request_id for r in ok})
        err = sorted((r.first_ns - first[r.request_id]) / 1e6 for r in ok
                     if r.request_id in first)
        s["ttft_error_ms"] = {"matched": len(err), "p50": nearest_rank(err, 0.5),
                              "p99": nearest_rank(err, 0.99),
                              "max": err[-1] if err else None}
    return s


def main(argv):
    args = parse_args(argv)
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    results, cpu, wall = asyncio.run(run(args))
    s = summarise(args, results, cpu, wall)
    if args.json:
        json.dump(s, sys.stdout)
        print()
    else:
        print("python aiohttp client: %d requests at concurrency %d, %d completed, %d failed %s"
              % (s["requests"], args.concurrency, s["completed"], s["failed"],
                 s["errors"] or ""))
        print("  %d chunks in %.2f s; client CPU %.3f s = %.1f us per chunk"
              % (s["chunks"], wall, cpu, s["cpu_us_per_chunk"] or float("nan")))
        print("  TTFT P50 %.2f ms, P99 %.2f ms" % (s["ttft_ms"]["p50"], s["ttft_ms"]["p99"]))
        if "ttft_error_ms" in s:
            e = s["ttft_error_ms"]
            print("  TTFT error against the simulator's writes (%d matched): P50 %.3f ms, "
                  "P99 %.3f ms, max %.3f ms" % (e["matched"], e["p50"], e["p99"], e["max"]))
    return 0 if s["completed"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
