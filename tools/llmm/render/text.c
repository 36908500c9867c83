/* text.c: what the text outputs share (text.h). */
#include <math.h>
#include <string.h>

#include "render/text.h"

void llmm_cli_wrapped(FILE *out, size_t lead, const char *name, size_t col, const char *text)
{
    const size_t width = 100;
    size_t at = col;
    int first = 1;
    fprintf(out, "%*s%-*s ", (int)lead, "", (int)(col - lead - 1), name);
    while (*text) {
        size_t w = strcspn(text, " ");
        if (!first && at + 1 + w > width) {
            fprintf(out, "\n%*s", (int)col, "");
            at = col;
        } else if (!first) {
            fputc(' ', out);
            at++;
        }
        fwrite(text, 1, w, out);
        at += w;
        first = 0;
        text += w;
        while (*text == ' ')
            text++;
    }
    fputc('\n', out);
}

const char *llmm_cli_rate3(double v, char *buf, size_t cap)
{
    int decimals = 0;
    if (isnan(v)) {
        snprintf(buf, cap, "n/a");
        return buf;
    }
    if (v != 0 && isfinite(v) && fabs(v) < 100) {
        decimals = 2 - (int)floor(log10(fabs(v)));
        if (decimals > 12)
            decimals = 12;
    }
    snprintf(buf, cap, "%.*f", decimals, v);
    return buf;
}
