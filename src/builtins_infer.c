/*
** builtins_infer.c — the typing steps the families' hooks share: a call of
** a registry row checked against the row (its arity, no keywords) with its
** CallInfo, and a row of fixed arity taking numbers. The rows' own checks
** stay in their family files (builtin_<family>.c).
*/
#include "builtin_hooks.h"

CallInfo *builtin_infer_checked(Infer *I, Node *n, const BuiltinName *nm) {
  const Builtin *b = builtin_of(nm);
  infer_nargs(I, n, b->member, b->lo, b->hi);
  infer_no_keywords(I, n, b->member);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  return ci;
}

bool builtin_infer_numbers(Infer *I, Node *n, const BuiltinName *nm, Type **at, bool real, const char *what) {
  const Builtin *b = builtin_of(nm);
  builtin_infer_checked(I, n, nm);
  if (!infer_arg_types(I, n->args.items, b->lo, at)) return false;
  for (int i = 0; i < b->lo; i++)
    if (!ty_is_number(at[i]) || (real && ty_is_complex(at[i])))
      compile_error(I->C, n->args.items[i]->loc, "TypingError", "%s() argument %d must be %s, not %s", b->member, i + 1,
                    what, tyname(I->C, at[i]));
  return true;
}
