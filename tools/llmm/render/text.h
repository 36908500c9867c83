/* text.h: what the text outputs share (text.c). */
#ifndef LLMM_CLI_RENDER_TEXT_H
#define LLMM_CLI_RENDER_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* "NAME text" with NAME at column `lead` and the text from column `col`, wrapped at 100
 * columns under itself, word by word; a newline at the end. */
void llmm_cli_wrapped(FILE *out, size_t lead, const char *name, size_t col, const char *text);

/* A rate with at least three significant digits and no exponent ("0.0264", "3.75", "455"),
 * into buf (returned); "n/a" for NaN. */
const char *llmm_cli_rate3(double v, char *buf, size_t cap);

#endif /* LLMM_CLI_RENDER_TEXT_H */
