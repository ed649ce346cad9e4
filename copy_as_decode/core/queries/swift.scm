; Swift's definitions (core/outline.py): classes, structs, enums and extensions are class_declaration.
(class_declaration name: [(type_identifier) (user_type)] @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.function
(init_declaration "init" @name) @definition.method
(deinit_declaration "deinit" @name) @definition.method
