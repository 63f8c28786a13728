import Testing

// Placeholder: the suite lands in this directory.
