/* Codec building blocks, white-box: CRC-32C against its bitwise definition and the published
 * check values, LEB128 varints at every width boundary, zig-zag. */
#include "helpers.h"

#include "sketch/codec_internal.h"

/* CRC-32C straight from the definition: reflected polynomial 0x82F63B78, one bit at a time. */
static uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ ((c & 1u) ? 0x82f63b78u : 0u);
    }
    return ~c;
}

static void test_crc_check_values(void **state)
{
    uint8_t buf[32];
    (void)state;
    /* the standard check value of CRC-32C */
    assert_int_equal(llmm__crc32c(0, (const uint8_t *)"123456789", 9), 0xe3069283u);
    assert_int_equal(crc_bitwise((const uint8_t *)"123456789", 9), 0xe3069283u);
    assert_int_equal(llmm__crc32c(0, NULL, 0), 0);
    /* RFC 3720 (iSCSI) appendix B.4 */
    memset(buf, 0, sizeof buf);
    assert_int_equal(llmm__crc32c(0, buf, 32), 0x8a9136aau);
    memset(buf, 0xff, sizeof buf);
    assert_int_equal(llmm__crc32c(0, buf, 32), 0x62a8ab43u);
    for (int i = 0; i < 32; i++)
        buf[i] = (uint8_t)i;
    assert_int_equal(llmm__crc32c(0, buf, 32), 0x46dd794eu);
    for (int i = 0; i < 32; i++)
        buf[i] = (uint8_t)(31 - i);
    assert_int_equal(llmm__crc32c(0, buf, 32), 0x113fdb5cu);
}

static void test_crc_matches_bitwise(void **state)
{
    uint8_t buf[1024];
    uint64_t x = 0x9e3779b97f4a7c15u;
    (void)state;
    /* every single byte reaches every table entry */
    for (int b = 0; b < 256; b++) {
        uint8_t v = (uint8_t)b;
        assert_int_equal(llmm__crc32c(0, &v, 1), crc_bitwise(&v, 1));
    }
    for (size_t i = 0; i < sizeof buf; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        buf[i] = (uint8_t)x;
    }
    for (size_t n = 0; n <= sizeof buf; n += 37) {
        uint32_t whole = llmm__crc32c(0, buf, n);
        assert_int_equal(whole, crc_bitwise(buf, n));
        /* continuing over a split gives the same result */
        for (size_t cut = 0; cut <= n; cut += 101)
            assert_int_equal(llmm__crc32c(llmm__crc32c(0, buf, cut), buf + cut, n - cut), whole);
    }
}

static void test_varint_round_trip(void **state)
{
    const uint64_t vals[] = {0, 1, 127, 128, 255, 16383, 16384, 2097151, 2097152,
                             UINT32_MAX, (uint64_t)1 << 35, ((uint64_t)1 << 56) - 1,
                             (uint64_t)1 << 56, ((uint64_t)1 << 63) - 1, (uint64_t)1 << 63,
                             UINT64_MAX};
    (void)state;
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        uint8_t buf[16];
        uint64_t v = vals[i], got = 0;
        size_t expect_len = 1, n;
        for (uint64_t t = v; t >= 128; t >>= 7)
            expect_len++;
        assert_int_equal(llmm__uvarint_len(v), expect_len);
        memset(buf, 0xaa, sizeof buf);
        n = llmm__uvarint_put(buf, v);
        assert_int_equal(n, expect_len);
        assert_int_equal(buf[n], 0xaa); /* wrote nothing beyond */
        assert_int_equal(llmm__uvarint_get(buf, n, &got), n);
        assert_true(got == v);
        /* room to spare does not change anything */
        assert_int_equal(llmm__uvarint_get(buf, sizeof buf, &got), n);
        assert_true(got == v);
        /* every truncation fails */
        for (size_t k = 0; k < n; k++)
            assert_int_equal(llmm__uvarint_get(buf, k, &got), 0);
    }
}

static void test_varint_rejects(void **state)
{
    uint64_t v = 12345;
    const uint8_t overlong0[] = {0x80, 0x00};
    const uint8_t overlong1[] = {0x81, 0x80, 0x00};
    const uint8_t ten_two[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    const uint8_t ten_one[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00};
    const uint8_t cont[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81};
    (void)state;
    assert_int_equal(llmm__uvarint_get(overlong0, 2, &v), 0);
    assert_int_equal(llmm__uvarint_get(overlong1, 3, &v), 0);
    assert_int_equal(llmm__uvarint_get(ten_two, 10, &v), 0);
    assert_int_equal(llmm__uvarint_get(eleven, 11, &v), 0);
    assert_int_equal(llmm__uvarint_get(cont, 10, &v), 0);
    assert_int_equal(v, 12345); /* untouched by failures */
    assert_int_equal(llmm__uvarint_get(ten_one, 10, &v), 10);
    assert_true(v == UINT64_MAX);
    assert_int_equal(llmm__uvarint_get(overlong0, 1, &v), 0);
}

static void test_zigzag(void **state)
{
    const int64_t vals[] = {0, -1, 1, -2, 2, 63, -64, 64, INT32_MIN, INT32_MAX, INT64_MIN,
                            INT64_MAX, INT64_MIN + 1};
    (void)state;
    assert_true(llmm__zigzag(0) == 0);
    assert_true(llmm__zigzag(-1) == 1);
    assert_true(llmm__zigzag(1) == 2);
    assert_true(llmm__zigzag(-2) == 3);
    assert_true(llmm__zigzag(INT64_MAX) == UINT64_MAX - 1);
    assert_true(llmm__zigzag(INT64_MIN) == UINT64_MAX);
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++)
        assert_true(llmm__unzigzag(llmm__zigzag(vals[i])) == vals[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc_check_values),
        cmocka_unit_test(test_crc_matches_bitwise),
        cmocka_unit_test(test_varint_round_trip),
        cmocka_unit_test(test_varint_rejects),
        cmocka_unit_test(test_zigzag),
    };
    return cmocka_run_group_tests_name("wb_codec", tests, NULL, NULL);
}
