#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static unsigned hash(const char *s, size_t n) { unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u; return h; }
static int cmp(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static void sort_numbers(int *v, size_t n) { qsort(v, n, sizeof *v, cmp); }
static double dot(const double *a, const double *b, size_t n) { double s = 0; for (size_t i = 0; i < n; i++) s += a[i] * b[i]; return s; }
static unsigned strings(void) { char buf[256]; unsigned h = 0; for (int i = 0; i < 20000; i++) { int n = snprintf(buf, sizeof buf, "item-%d-%x", i, i * 7); h ^= hash(buf, (size_t)n); } return h; }
int main(void) {
	unsigned acc = 0; size_t n = 200000;
	int *v = malloc(n * sizeof *v); double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	for (int round = 0; round < 60; round++) {
		for (size_t i = 0; i < n; i++) { v[i] = (int)((i * 2654435761u + round) % 1000003); a[i] = i * 0.5; b[i] = round - i * 0.25; }
		sort_numbers(v, n); acc += (unsigned)v[n / 2];
		acc += (unsigned)dot(a, b, n);
		acc += strings();
	}
	printf("%u\n", acc); return 0;
}
