/*
 * replay.c - run a fuzz target's LLVMFuzzerTestOneInput over fixed
 * inputs, without libFuzzer: every file named, and every file in every
 * directory named (sorted), once.  Linked with a target source by make
 * check, so each input of the seed corpus, crashes found earlier included,
 * goes through every target in every test run (under ASan in make
 * check-asan).  Prints the number of inputs; a crash or abort is the
 * failure.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long ninputs;

static void
run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (fp == NULL) {
		perror(path);
		exit(2);
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			if ((buf = realloc(buf, cap)) == NULL)
				abort();
		}
		n = fread(buf + len, 1, cap - len, fp);
		if (n == 0)
			break;
		len += n;
	}
	fclose(fp);
	/* an exact-size copy, so reading past the end is caught by ASan */
	{
		unsigned char *exact = malloc(len ? len : 1);

		if (exact == NULL)
			abort();
		memcpy(exact, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	ninputs++;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
run_path(const char *path)
{
	struct stat st;
	struct dirent *de;
	DIR *dp;
	char **names = NULL;
	size_t n = 0, i;

	if (stat(path, &st) < 0) {
		perror(path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	if ((dp = opendir(path)) == NULL) {
		perror(path);
		exit(2);
	}
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		if (names == NULL || (names[n] = malloc(strlen(path) +
		    strlen(de->d_name) + 2)) == NULL)
			abort();
		sprintf(names[n++], "%s/%s", path, de->d_name);
	}
	closedir(dp);
	if (n > 0)
		qsort(names, n, sizeof *names, cmp_str);
	for (i = 0; i < n; i++) {
		run_path(names[i]);
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	int i;

	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++)
		run_path(argv[i]);
	printf("%lu inputs\n", ninputs);
	return 0;
}
