/*
 * test_viewdata.c - unit tests of the view data writer (viewdata.c)
 * against a model written here the plain way: the tree walked
 * recursively in pre-order, the budget's nodes chosen by sorting every
 * node (heavier first, then earlier), and each kept node's expected depth,
 * name, own samples and "other" remainder compared with what the writer's
 * tree line says, on random trees with ties, fractions, annotations and
 * every budget from 1 to past the tree's size.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "folded.h"
#include "viewdata.h"

/* viewdata.c again, with room for 3 heavy nodes only (find_heavy), so
 * that the heavy nodes past them go the pre-order walk's way. */
#define HEAVY_MOST 3
#define fg_view_data_free fg_view_data_free_capped
#define fg_view_data_prepare fg_view_data_prepare_capped
#define fg_view_data_put_names fg_view_data_put_names_capped
#define fg_view_data_put_tree fg_view_data_put_tree_capped
#define fg_view_data_write fg_view_data_write_capped
#include "../../src/lib/viewdata.c"
#undef fg_view_data_free
#undef fg_view_data_prepare
#undef fg_view_data_put_names
#undef fg_view_data_put_tree
#undef fg_view_data_write

typedef struct model_node {
	fg_node_id id;
	size_t depth, parent, position;
	fg_count total;
	bool kept;
} model_node;

static model_node nodes[4096];
static size_t node_count;

static void walk(const fg_tree *t, fg_node_id n, size_t depth, size_t parent)
{
	size_t at = node_count++;
	nodes[at] = (model_node){n, depth, parent, at, fg_tree_total(t, n), false};
	for (fg_node_id c = fg_tree_first_child(t, n); c != FG_NODE_NONE; c = fg_tree_next_sibling(t, c))
		walk(t, c, depth + 1, at);
}

static int heavier_first(const void *a, const void *b)
{
	const model_node *x = *(const model_node *const *)a, *y = *(const model_node *const *)b;
	int c = fg_count_compare(y->total, x->total);
	return c ? c : (x->position > y->position) - (x->position < y->position);
}

/* A name without a trailing _[k], _[j], _[i] or _[w]. */
static size_t shown(const char *name, size_t length)
{
	if (length >= 4 && memcmp(name + length - 4, "_[", 2) == 0 && name[length - 1] == ']' &&
	    strchr("kjiw", name[length - 2]) != NULL)
		return length - 4;
	return length;
}

static const char *frames[] = {"a", "b", "c", "a_[k]", "b_[j]", "main", "x;y"};

/* One random profile, written with `budget` (by the capped copy of
 * viewdata.c when `capped`); 0 when everything agrees. */
static int one(unsigned seed, size_t budget, bool fractions, bool capped, char *why,
	       size_t why_size)
{
	srand(seed);
	fg_tree *t = fg_tree_new(0);
	int lines = 1 + rand() % 40;
	for (int i = 0; i < lines; i++) {
		char stack[256] = "";
		int depth = rand() % 6;
		for (int d = 0; d < depth; d++) {
			const char *f = frames[rand() % 6];
			if (d)
				strcat(stack, ";");
			strcat(stack, f);
		}
		/* (Weights around 65535 and past 32 bits take the view data's
		 * other ways of finding the budget's lightest node.) */
		uint64_t scale = seed % 3 == 0 ? 1 : seed % 3 == 1 ? 65533 : ((uint64_t)1 << 33) + 7;
		fg_count count = {(uint64_t)(1 + rand() % 4) * scale, 0};
		if (fractions && rand() % 3 == 0)
			count.frac = FG_COUNT_FRAC_ONE / (rand() % 2 ? 2 : 4);
		fg_tree_add(t, stack, strlen(stack), count, NULL);
	}
	fg_tree_finish(t);
	node_count = 0;
	walk(t, 0, 0, 0);

	model_node *order[4096];
	for (size_t i = 0; i < node_count; i++)
		order[i] = &nodes[i];
	qsort(order, node_count, sizeof(*order), heavier_first);
	size_t kept_count = 0;
	for (size_t i = 0; i < node_count && i < budget; i++, kept_count++)
		order[i]->kept = true;
	fg_count other_all = {0, 0};
	for (size_t i = 1; i < node_count; i++)
		if (!nodes[i].kept && nodes[nodes[i].parent].kept)
			fg_count_add(&other_all, nodes[i].total);

	fg_buffer out = {0, 0, 0};
	fg_count total = fg_tree_total(t, 0);
	int rc = (capped ? fg_view_data_write_capped : fg_view_data_write)(&out, t, budget, total, 0.0,
									 NAN, 1, NULL, NULL);
	fg_buffer_append(&out, "", 1);
	int bad = 0;
#define FAIL(...) do { snprintf(why, why_size, __VA_ARGS__); bad = 1; goto done; } while (0)
	if (rc != 0)
		FAIL("write failed");
	char expected[256], number[FG_COUNT_TEXT_MAX];
	fg_count_format(other_all, number);
	snprintf(expected, sizeof(expected), "fg-data 1 nodes=%zu ", kept_count);
	if (strncmp(out.data, expected, strlen(expected)) != 0)
		FAIL("header %.60s, expected %s", out.data, expected);
	char *other = strstr(out.data, " other=");
	if (other == NULL || strncmp(other + 7, number, strlen(number)) != 0 || other[7 + strlen(number)] != '\n')
		FAIL("other: %.30s, expected %s", other ? other : "(none)", number);

	/* The names, by number, then the tree line. */
	char *names[4096];
	char *field = strstr(out.data, " names=");
	size_t name_count = field ? strtoul(field + 7, NULL, 10) : 0;
	char *p = strchr(out.data, '\n') + 1;
	for (size_t i = 0; i < name_count && name_count < 4096; i++) {
		char *end = strchr(p, '\n');
		if (end == NULL)
			FAIL("%zu names, not %zu", i, name_count);
		*end = '\0';
		names[i] = p;
		p = end + 1;
	}
	char *tree = p;
	tree[strcspn(tree, "\n")] = '\0';
	if (name_count == 0 || strcmp(names[0], "all") != 0)
		FAIL("the names do not start with all");

	/* Names most used first, ties in byte order. */
	for (size_t i = 2; i < name_count; i++) {
		size_t uses[2] = {0, 0};
		for (size_t k = 1; k < node_count; k++) {
			if (!nodes[k].kept)
				continue;
			size_t length;
			const char *name = fg_tree_name(t, nodes[k].id, &length);
			length = shown(name, length);
			for (int w = 0; w < 2; w++)
				uses[w] += strlen(names[i - 1 + w]) == length &&
					   memcmp(names[i - 1 + w], name, length) == 0;
		}
		if (uses[0] < uses[1] || (uses[0] == uses[1] && strcmp(names[i - 1], names[i]) >= 0))
			FAIL("names %s (%zu uses) before %s (%zu)", names[i - 1], uses[0], names[i], uses[1]);
	}

	size_t depth = 0, k = 0;
	const char *q = tree;
	for (size_t i = 0; i < node_count; i++) {
		if (!nodes[i].kept)
			continue;
		model_node *m = &nodes[i];
		if (k > 0) {
			size_t up = 0;
			if (*q == ',')
				q++;
			else
				while (*q == ')') {
					q++;
					up++;
				}
			depth = depth + 1 - up;
		}
		if (depth != m->depth)
			FAIL("node %zu: depth %zu, expected %zu (%s)", k, depth, m->depth, tree);
		char *end;
		unsigned long id = strtoul(q, &end, 36);
		q = end;
		size_t length;
		const char *name = i == 0 ? "all" : fg_tree_name(t, m->id, &length);
		length = i == 0 ? 3 : shown(name, length);
		if (id >= name_count || strlen(names[id]) != length || memcmp(names[id], name, length) != 0)
			FAIL("node %zu: name %lu, expected %.*s", k, id, (int)length, name);
		fg_count children = {0, 0}, left = {0, 0};
		for (size_t c = i + 1; c < node_count && nodes[c].depth > m->depth; c++)
			if (nodes[c].parent == i) {
				fg_count_add(&children, nodes[c].total);
				if (!nodes[c].kept)
					fg_count_add(&left, nodes[c].total);
			}
		fg_count self = fg_count_sub_floor(m->total, children);
		char want[2 * FG_COUNT_TEXT_MAX + 4] = "";
		if (self.whole || self.frac) {
			strcat(want, ":");
			fg_count_format(self, number);
			strcat(want, number);
		}
		if (left.whole || left.frac) {
			strcat(want, "!");
			fg_count_format(left, number);
			strcat(want, number);
		}
		size_t got = strcspn(q, ",)");
		if (got != strlen(want) || strncmp(q, want, got) != 0)
			FAIL("node %zu (%.*s): \"%.*s\", expected \"%s\"", k, (int)length, name, (int)got, q, want);
		q += got;
		k++;
	}
	if (*q != '\0' && strspn(q, ")") != strlen(q))
		FAIL("trailing \"%s\"", q);
done:
	fg_buffer_free(&out);
	fg_tree_free(t);
	return bad;
}

int main(void)
{
	char why[512] = "";
	for (int capped = 0; capped <= 1; capped++) {
		int failures = 0, runs = 0;
		for (unsigned seed = 1; seed <= 300 && failures == 0; seed++)
			for (size_t budget = 1; budget <= 40 && failures == 0;
			     budget += budget < 8 ? 1 : 7) {
				runs++;
				failures += one(seed, budget, seed % 2 == 0, capped, why, sizeof(why));
				if (failures)
					printf("# seed %u, budget %zu: %s\n", seed, budget, why);
			}
		CHECK(failures == 0,
		      "view data%s: the budget's heaviest nodes, names, own samples and remainders "
		      "match a sorting model (%d random profiles x budgets)",
		      capped ? " (3 heavy nodes noted at most)" : "", runs);
	}
	return check_exit();
}
