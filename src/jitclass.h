/*
** jitclass.h — @jitclass instances on the Lua side and at run time
** (jitclass.c, core): an instance is a MemInfo (nrt.h) whose buffer holds
** the fields at ClassInfo.offsets (types.h); an array field is an
** ArrayStruct holding one reference. Compiled code makes instances with
** lm_class_new and passes them as the MemInfo pointer.
*/
#ifndef jitclass_h
#define jitclass_h

#include <lua.h>

#include "nrt.h"
#include "types.h"

#define JITCLASS_MT "lumba.jitclass"
#define INSTANCE_MT "lumba.jitclass_instance"
#define CLASSES_KEY "lumba.jitclasses"  /* registry: light ClassInfo* → its class userdata */

/* a new instance of c, its fields zero, refct 1; NULL when out of memory
** (compiled code calls it too) */
MemInfo *lm_class_new(ClassInfo *c);
/* the instance at idx: its MemInfo and *cls, or NULL */
MemInfo *jitclass_test(lua_State *L, int idx, ClassInfo **cls);
/* pushes an instance of cls over mi, taking mi's reference */
void jitclass_push(lua_State *L, ClassInfo *cls, MemInfo *mi);
void jitclass_open(lua_State *L);
/* jitclass_new.c: core._jitclass */
void jitclass_new_open(lua_State *L);

#endif
