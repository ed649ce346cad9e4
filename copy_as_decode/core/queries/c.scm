; C's definitions (core/outline.py): functions, however many pointers their declarator has, and the structs,
; unions and enums that have a body.
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(type_definition type: [(struct_specifier !name body: (field_declaration_list))
                        (union_specifier !name body: (field_declaration_list))
                        (enum_specifier !name body: (enumerator_list))]
  declarator: (type_identifier) @name) @definition.struct
