; C++'s definitions (core/outline.py): a method defined outside its class is named `Circle::area`, read as
; `Circle.area`; a specialization `struct is_small<T, ...>` is named `is_small`. Conversion operators
; (`operator int()`) are left out: their name is a type.
(function_definition
  declarator: (function_declarator
    declarator: [(identifier) (field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @name)) @definition.function
; a function returning a pointer or a reference (`static PyObject* Solver_new(...)`, `char** f(...)`, `T& at(...)`):
; its declarator wraps the function_declarator
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: [(identifier) (field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @name))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator
        declarator: [(identifier) (field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @name)))) @definition.function
(function_definition
  declarator: (reference_declarator
    (function_declarator
      declarator: [(identifier) (field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @name))) @definition.function
(class_specifier
  name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier) @name]
  body: (field_declaration_list)) @definition.class
(struct_specifier
  name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier) @name]
  body: (field_declaration_list)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.module
(type_definition type: [(struct_specifier !name body: (field_declaration_list))
                        (class_specifier !name body: (field_declaration_list))
                        (union_specifier !name body: (field_declaration_list))
                        (enum_specifier !name body: (enumerator_list))]
  declarator: (type_identifier) @name) @definition.struct
