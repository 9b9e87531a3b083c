/* sha256: the FIPS 180-4 example messages, lengths around the padding
** boundaries (55/56/63/64/119/120 bytes), and the same digest whatever
** pieces the message is fed in. Expected digests from coreutils' sha256sum. */
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "test.h"

static const char *hex_of(const void *p, size_t n) {
  static char out[2 * SHA256_LEN + 1];
  unsigned char d[SHA256_LEN];
  sha256(p, n, d);
  sha256_hex(d, out);
  return out;
}

/* n bytes of 'a' */
static const char *hex_of_a(size_t n) {
  char *p = malloc(n + 1);
  memset(p, 'a', n);
  const char *h = hex_of(p, n);
  free(p);
  return h;
}

/* the message fed `step` bytes at a time */
static const char *hex_in_steps(const char *m, size_t n, size_t step) {
  static char out[2 * SHA256_LEN + 1];
  unsigned char d[SHA256_LEN];
  Sha256 s;
  sha256_init(&s);
  for (size_t i = 0; i < n; i += step) sha256_update(&s, m + i, n - i < step ? n - i : step);
  sha256_final(&s, d);
  sha256_hex(d, out);
  return out;
}

int main(void) {
  ASSERT_STR("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", hex_of("abc", 3));
  ASSERT_STR("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", hex_of("", 0));
  const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  ASSERT_STR("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", hex_of(m448, strlen(m448)));
  ASSERT_STR("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", hex_of_a(1000000));
  ASSERT_STR("9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318", hex_of_a(55));
  ASSERT_STR("b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a", hex_of_a(56));
  ASSERT_STR("7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34", hex_of_a(63));
  ASSERT_STR("ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb", hex_of_a(64));
  ASSERT_STR("635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0", hex_of_a(65));
  ASSERT_STR("31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb", hex_of_a(119));
  ASSERT_STR("2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c", hex_of_a(120));
  const size_t steps[] = {1, 3, 63, 64, 65, 100};
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
    ASSERT_STR("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
               hex_in_steps(m448, strlen(m448), steps[i]));
  TEST_END();
}
