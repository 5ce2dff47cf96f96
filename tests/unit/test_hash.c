/*
 * test_hash.c - unit tests of the library's hash seed (util.c): it is drawn
 * per process, so keys made to collide under a known seed do not collide.
 *
 * With the constant seed there was, 23-byte keys whose 64-bit hashes are
 * all the same are quick to make (the first 16 bytes at random until the
 * hash's top byte fits; the last 7 cancel the rest), and each table of
 * names, stacks or paths then probed through every key before: 160,000
 * of them (5 MB) took fg-render 24 s, fg-diff 80,000 21 s. Checked here
 * without timing: such keys get distinct hashes, and two runs of this
 * program hash one key differently.
 */
#include <stdlib.h>

#include "check.h"
#include "internal.h"

#define OLD_SEED 0x8ebc6af09c88c6e3ull

static uint64_t state = 88172645463325252ull;
static uint64_t next_random(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* 8 bytes of letters and digits. */
static uint64_t random_word(void)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	uint64_t w = 0;
	for (int i = 0; i < 8; i++)
		w |= (uint64_t)(unsigned char)letters[next_random() % 62] << (8 * i);
	return w;
}

/* fg_hash_bytes of a 23-byte key as it was with the constant seed, and a
 * key of that hash: the first 16 bytes given, the last 7 made to fit, if
 * they can be (no NUL, ';' or white space). */
static bool colliding_key(uint64_t w0, uint64_t w1, uint64_t target, char key[23])
{
	uint64_t h = fg_hash_mix(w0 ^ FG_HASH_K1 ^ (23 * FG_HASH_K0 ^ OLD_SEED), w1 ^ FG_HASH_K0);
	if ((h ^ target) >> 56 != 0)
		return false;
	uint64_t last = (h ^ target) & 0x00ffffffffffffffull;
	for (int i = 0; i < 7; i++) {
		unsigned char c = (unsigned char)(last >> (8 * i));
		if (c <= ' ' || c == ';' || c == 0x7f)
			return false;
	}
	memcpy(key, &w0, 8);
	memcpy(key + 8, &w1, 8);
	memcpy(key + 16, &last, 7);
	return true;
}

static uint64_t old_hash(const char key[23])
{
	uint64_t w0, w1, a = 0;
	memcpy(&w0, key, 8);
	memcpy(&w1, key + 8, 8);
	memcpy(&a, key + 16, 7);
	uint64_t h = fg_hash_mix(w0 ^ FG_HASH_K1 ^ (23 * FG_HASH_K0 ^ OLD_SEED), w1 ^ FG_HASH_K0);
	return fg_hash_mix(h ^ a ^ FG_HASH_K1, FG_HASH_K0 ^ 23);
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* A table made before main, by a constructor of the program's own: in a
 * static link it runs before the library's, which drew the seed and so
 * changed it under the table (its key was added a second time in main). */
static fg_stacks *early_stacks;
__attribute__((constructor)) static void make_a_table_early(void)
{
	early_stacks = fg_stacks_new();
	if (early_stacks != NULL)
		fg_stacks_add(early_stacks, "main;work", 9, 0, fg_count_of(1));
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--hash") == 0) {
		printf("%016llx\n", (unsigned long long)fg_hash_bytes("main;work;leaf", 14));
		return 0;
	}

	enum { KEYS = 64 };
	static char keys[KEYS][23];
	uint64_t target = 0x5a41414141414141ull, hashes[KEYS];
	size_t made = 0, old_same = 0;
	for (long tries = 0; made < KEYS && tries < 10000000; tries++) {
		uint64_t w0 = random_word(), w1 = random_word();
		if (colliding_key(w0, w1, target, keys[made]))
			made++;
	}
	for (size_t i = 0; i < made; i++)
		old_same += old_hash(keys[i]) == old_hash(keys[0]);
	CHECK(made == KEYS && old_same == KEYS,
	      "hash: %zu distinct keys that all collided under the old constant seed", made);
	for (size_t i = 0; i < made; i++)
		hashes[i] = fg_hash_bytes(keys[i], 23);
	qsort(hashes, made, sizeof(*hashes), compare_u64);
	size_t distinct = made > 0;
	for (size_t i = 1; i < made; i++)
		distinct += hashes[i] != hashes[i - 1];
	CHECK(distinct == made, "hash: those keys hash apart now (%zu distinct hashes of %zu)", distinct,
	      made);

	CHECK(early_stacks != NULL && fg_stacks_add(early_stacks, "main;work", 9, 0, fg_count_of(1)) == 0 &&
	      fg_stacks_size(early_stacks) == 1,
	      "hash: a table made by a constructor before the library's still finds its keys in main");
	fg_stacks_free(early_stacks);

	/* Two more runs of this program: one key, three hashes. */
	char command[4200], seen[3][40] = {{0}};
	snprintf(seen[0], sizeof(seen[0]), "%016llx\n",
		 (unsigned long long)fg_hash_bytes("main;work;leaf", 14));
	bool ran = strlen(argv[0]) < 4000;
	for (int i = 1; ran && i < 3; i++) {
		snprintf(command, sizeof(command), "'%s' --hash", argv[0]);
		FILE *p = popen(command, "r");
		ran = p != NULL && fgets(seen[i], sizeof(seen[i]), p) != NULL;
		if (p != NULL)
			ran = pclose(p) == 0 && ran;
	}
	CHECK(ran && strcmp(seen[0], seen[1]) != 0 && strcmp(seen[1], seen[2]) != 0 &&
	      strcmp(seen[0], seen[2]) != 0,
	      "hash: the seed is drawn per process (three runs, three hashes of one key)");
	return check_exit();
}
