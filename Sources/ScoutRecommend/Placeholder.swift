// Placeholder: the module's sources land in this directory.
