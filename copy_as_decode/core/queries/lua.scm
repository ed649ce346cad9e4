; Lua's definitions (core/outline.py): `function M.add` and `function M:method` are `M.add` and `M.method`.
(function_declaration name: [(identifier) (dot_index_expression) (method_index_expression)] @name) @definition.function
(assignment_statement
  (variable_list . name: [(identifier) (dot_index_expression)] @name)
  (expression_list . value: (function_definition))) @definition.function
(variable_declaration
  (assignment_statement
    (variable_list . name: (identifier) @name)
    (expression_list . value: (function_definition)))) @definition.function
