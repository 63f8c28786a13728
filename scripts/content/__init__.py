"""Hand-written Scout content read by scripts/build_data.py.

Everything in this package was written by the Scout team (original content): articles,
exercises, breed aliases, species names, synonyms, and the phrases used to generate the
sample programs and dog-lover profiles. build_data.py turns it into files under data/;
scripts/check_content.py validates those files.
"""
