/* readers_gen.h: fixed, generated result files in each benchmark tool's schema, for
 * bench_readers (readers_gen.c). The same seed and size give the same bytes. */
#ifndef LLMM_BENCH_READERS_GEN_H
#define LLMM_BENCH_READERS_GEN_H

#include <stddef.h>
#include <stdio.h>

/* One format: its `llmm report --format` name and its generator, which writes about `bytes`
 * bytes to f (whole requests, so a little more). */
typedef struct gen_format {
    const char *name;
    const char *what;
    int (*write)(FILE *f, size_t bytes);
    /* NULL, or a second Python reference doing the work llmm does beyond json.load (the
     * file is sys.argv[1]) */
    const char *python_more;
} gen_format;

extern const gen_format gen_formats[];
extern const size_t gen_nformats;

#endif /* LLMM_BENCH_READERS_GEN_H */
