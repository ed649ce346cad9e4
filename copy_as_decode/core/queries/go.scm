; Go's definitions (core/outline.py): a method is named by its receiver's type, @scope (`Store.Get`).
(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @scope
             (pointer_type [(type_identifier) @scope (generic_type type: (type_identifier) @scope)])
             (generic_type type: (type_identifier) @scope)]))
  name: (field_identifier) @name) @definition.method
(type_declaration (type_spec name: (type_identifier) @name type: (struct_type))) @definition.struct
(type_declaration (type_spec name: (type_identifier) @name type: (interface_type))) @definition.interface
