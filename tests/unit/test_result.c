/*
 * test_result.c - the outcome classes and the text of results of games
 * that end in a result (solve/result.h).  Expected classes from the
 * definitions of CGSuite's OutcomeClass (lib/core/.../OutcomeClass.scala:
 * leftOutcome is the result with Left moving first, rightOutcome with
 * Right moving first), written out here as a table of the nine; payoffs
 * are classed by their sign.
 */
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "solve/result.h"
#include "tap.h"

int
main(void)
{
	static const struct {
		int64_t l, r;
		const char *cls;
	} t[] = {
		{ CG_RESULT_LEFT_WINS, CG_RESULT_LEFT_WINS, "L" },
		{ CG_RESULT_RIGHT_WINS, CG_RESULT_RIGHT_WINS, "R" },
		{ CG_RESULT_LEFT_WINS, CG_RESULT_RIGHT_WINS, "N" },
		{ CG_RESULT_RIGHT_WINS, CG_RESULT_LEFT_WINS, "P" },
		{ 0, 0, "D" },
		{ 0, CG_RESULT_LEFT_WINS, "PHat" },
		{ CG_RESULT_RIGHT_WINS, 0, "PCheck" },
		{ CG_RESULT_LEFT_WINS, 0, "NHat" },
		{ 0, CG_RESULT_RIGHT_WINS, "NCheck" },
		/* payoffs: the sign */
		{ 3, 1, "L" }, { -2, 5, "P" }, { 7, 0, "NHat" }, { 0, -1,
		    "NCheck" },
	};
	struct cg_buf b;
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		is_str(cg_result_class(t[i].l, t[i].r), t[i].cls,
		    "class of (%lld, %lld)", (long long)t[i].l,
		    (long long)t[i].r);
	cg_buf_init(&b);
	cg_result_text(CG_RESULT_LEFT_WINS, &b);
	cg_buf_addc(&b, ' ');
	cg_result_text(CG_RESULT_RIGHT_WINS, &b);
	cg_buf_addc(&b, ' ');
	cg_result_text(-17, &b);
	cg_buf_addc(&b, ' ');
	cg_result_text(0, &b);
	is_str(cg_buf_str(&b), "inf -inf -17 0", "results as text");
	cg_buf_free(&b);
	return tap_done();
}
