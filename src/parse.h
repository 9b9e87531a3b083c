/*
** parse.h — recursive descent for the Python subset (statements) with
** precedence climbing for binary operators; builds the tree of ast.h.
** The entry point, parse_source, is declared in frontend.h.
**
** Limits: brackets, indented blocks, elif chains and prefix operators nest
** at most LM_MAXNEST deep, and every expression tree is at most LM_MAXNEST
** nodes high (a sum of 300 terms is 300 high), so later stages may recurse
** on the tree freely. Beyond that: SyntaxError "too deeply nested".
*/
#ifndef parse_h
#define parse_h

#include "frontend.h"

#endif
