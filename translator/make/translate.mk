# translate.mk -- make rules that translate sources at build time.
#
#   include $(shell translate --make-dir)/translate.mk
#   OFFLOAD := ops.f90 caxpy.c                 # sources with translate regions
#   $(call translate_sources,$(OFFLOAD))       # defines their rules (expands to nothing)
#   prog: main.o util.o $(call translate_objects,$(OFFLOAD)) $(TRANSLATE_RUNTIME)
#   	$(FC) $(filter %.o,$^) $(TRANSLATE_LIBS) -o $@
#
# For each source S: $(TRANSLATE_DIR)/S.stamp runs translate (outputs are rewritten only when
# their text changes, so an edit that does not change, say, the kernels recompiles nothing
# else); $(TRANSLATE_DIR)/S.o is the rewritten source compiled with the source's directory
# first on the include path (it also depends on the stamp, because the files S includes are
# compiled with it), and $(TRANSLATE_DIR)/S.host.o the host glue.  Dependency files written
# by translate (-MD -MP) track included files and the translator itself.
#
# Variables (set them before the $(call translate_sources,...) line):
#   TRANSLATE        the translate command                      (default: translate)
#   TRANSLATE_DIR    where translated files and objects go      (default: .translate)
#   TRANSLATE_FLAGS  translate options, e.g. $(CPPFLAGS) -Werror --report
#   FC FFLAGS CC CPPFLAGS CFLAGS AR: as usual.
# Sources are named relative to the current directory and may not contain ".."; sources of
# different folders may share a name (their outputs go to $(TRANSLATE_DIR)/<folder>/), two
# sources of one folder may not share a stem (heat.f90 and heat.c).  The include adds no
# default goal.

_translate_saved_goal := $(.DEFAULT_GOAL)
TRANSLATE ?= translate
TRANSLATE_DIR ?= .translate
TRANSLATE_FLAGS ?=
TRANSLATE_RT_DIR := $(shell $(TRANSLATE) --runtime-dir)
ifeq ($(TRANSLATE_RT_DIR),)
$(error translate.mk: '$(TRANSLATE) --runtime-dir' printed nothing: is translate on PATH, or TRANSLATE set?)
endif
TRANSLATE_RUNTIME = $(TRANSLATE_DIR)/libtranslate_rt.a
TRANSLATE_LIBS = $(TRANSLATE_RUNTIME) -lOpenCL

translate_objects = $(foreach s,$(1),$(TRANSLATE_DIR)/$(s).o $(TRANSLATE_DIR)/$(s).host.o)
# The rules of each source; the default goal stays what it was (the rules defined here must
# not become what a plain `make` builds).
translate_sources = $(eval _translate_goal := $(.DEFAULT_GOAL))$(foreach s,$(1),$(call \
  _translate_check,$(s))$(eval $(call _translate_rules,$(s))))$(eval .DEFAULT_GOAL := \
  $(_translate_goal))

# heat.f90 and heat.c of one folder would both write heat.cl and heat.host.c: refuse.
_translate_stems :=
_translate_check = $(if $(filter $(basename $(1)),$(_translate_stems)),$(error translate.mk: \
  $(1) and another source both translate to $(TRANSLATE_DIR)/$(basename $(1)).host.c and \
  .cl: rename one of them))$(eval _translate_stems += $(basename $(1)))

_translate_is_c = $(filter %.c,$(1))
_translate_out = $(TRANSLATE_DIR)/$(patsubst ./%,%,$(dir $(1)))

define _translate_rules
$(TRANSLATE_DIR)/$(1).stamp: $(1)
	@mkdir -p $$(@D)
	$$(TRANSLATE) $$(TRANSLATE_FLAGS) $$< -o $(call _translate_out,$(1)) --unique-symbols --all-outputs -MD -MP -MF $$@.d -MT $$@
	@touch $$@

$(TRANSLATE_DIR)/$(1) $(TRANSLATE_DIR)/$(basename $(1)).host.c: $(TRANSLATE_DIR)/$(1).stamp ;

$(TRANSLATE_DIR)/$(1).o: $(TRANSLATE_DIR)/$(1) $(TRANSLATE_DIR)/$(1).stamp
	$(if $(call _translate_is_c,$(1)),$$(CC) $$(CPPFLAGS) $$(CFLAGS),$$(FC) $$(FFLAGS)) -I$(or $(dir $(1)),.) -c $$< -o $$@

$(TRANSLATE_DIR)/$(1).host.o: $(TRANSLATE_DIR)/$(basename $(1)).host.c
	$$(CC) $$(CFLAGS) -I$$(TRANSLATE_RT_DIR) -c $$< -o $$@

-include $(TRANSLATE_DIR)/$(1).stamp.d
endef

$(TRANSLATE_RUNTIME): $(TRANSLATE_RT_DIR)/translate_rt.c $(TRANSLATE_RT_DIR)/translate_rt.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(TRANSLATE_RT_DIR) -c $< -o $(TRANSLATE_DIR)/translate_rt.o
	$(AR) rcs $@ $(TRANSLATE_DIR)/translate_rt.o

# this file adds no default goal: a plain `make` still builds the makefile's first target
.DEFAULT_GOAL := $(_translate_saved_goal)
