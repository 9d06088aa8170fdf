"""cass_train: fine-tuning and evaluation of translators (built on cass_cc.toolchain)."""
