/*
 * test_bytemap.c - libcore's byte-string hash map (bytemap.h): entries are
 * numbered in insertion order, keys are copied, nothing is lost over
 * rehashes and arena growth.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "tap.h"

#define MANY 200000

int
main(void)
{
	struct cg_bytemap *m = cg_bytemap_new();
	int isnew = -1, bad;
	uint64_t e;
	size_t len, i;
	char key[32];
	const unsigned char *k;

	ok(cg_bytemap_count(m) == 0, "a new map is empty");
	is_int(cg_bytemap_find(m, "x", 1), -1, "find in an empty map");

	e = cg_bytemap_intern(m, "alpha", 5, &isnew);
	is_int(e, 0, "first key is entry 0");
	is_int(isnew, 1, "and is new");
	e = cg_bytemap_intern(m, "beta", 4, &isnew);
	is_int(e, 1, "second key is entry 1");
	e = cg_bytemap_intern(m, "alpha", 5, &isnew);
	is_int(e, 0, "interning again gives the same entry");
	is_int(isnew, 0, "and is not new");
	is_int(cg_bytemap_count(m), 2, "two entries");

	/* keys are compared by length and bytes, NULs included */
	e = cg_bytemap_intern(m, "alpha\0", 6, &isnew);
	is_int(e, 2, "a key with a trailing NUL is another key");
	e = cg_bytemap_intern(m, "", 0, &isnew);
	is_int(e, 3, "the empty key is a key");
	is_int(cg_bytemap_find(m, "", 0), 3, "and can be found");
	is_int(cg_bytemap_find(m, "alph", 4), -1, "a prefix is not found");

	*cg_bytemap_value(m, 1) = 42;
	is_int(*cg_bytemap_value(m, 1), 42, "values are stored");
	is_int(*cg_bytemap_value(m, 0), 0, "new entries have value 0");

	k = cg_bytemap_key(m, 1, &len);
	ok(len == 4 && memcmp(k, "beta", 4) == 0, "keys are copied");

	/* enough keys to rehash many times and grow the arena */
	for (i = 0; i < MANY; i++) {
		len = (size_t)snprintf(key, sizeof key, "key-%zu", i);
		e = cg_bytemap_intern(m, key, len, &isnew);
		*cg_bytemap_value(m, e) = i * 7;
		if (e != i + 4 || !isnew)
			break;
	}
	is_int(i, MANY, "%d more keys numbered in insertion order", MANY);
	is_int(cg_bytemap_count(m), MANY + 4, "count");
	bad = 0;
	for (i = 0; i < MANY; i++) {
		len = (size_t)snprintf(key, sizeof key, "key-%zu", i);
		if (cg_bytemap_find(m, key, len) != (int64_t)(i + 4) ||
		    *cg_bytemap_value(m, i + 4) != i * 7)
			bad++;
		k = cg_bytemap_key(m, i + 4, &len);
		if (len != strlen(key) || memcmp(k, key, len) != 0)
			bad++;
	}
	is_int(bad, 0, "every key found again with its value after growth");
	is_int(cg_bytemap_find(m, "alpha", 5), 0, "early keys survive rehashing");
	is_int(*cg_bytemap_value(m, 1), 42, "and keep their values");
	ok(cg_bytemap_memory(m) > MANY * 8, "memory is accounted");

	ok(cg_hash_bytes("abc", 3, 0) == cg_hash_bytes("abc", 3, 0),
	    "hash is deterministic");
	ok(cg_hash_bytes("abc", 3, 0) != cg_hash_bytes("abc", 3, 1),
	    "the seed changes the hash");
	ok(cg_hash_bytes("abcdefgh", 8, 0) != cg_hash_bytes("abcdefgi", 8, 0),
	    "one byte changes the hash");
	cg_bytemap_free(m);
	cg_bytemap_free(NULL);
	return tap_done();
}
