; Bash's definitions (core/outline.py): its functions.
(function_definition name: (word) @name) @definition.function
