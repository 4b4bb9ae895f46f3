// The README's Swift examples, written here by .ci/check-doc-examples.py (Example*.swift), are built and run.
