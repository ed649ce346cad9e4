; Ruby's definitions (core/outline.py): a def in a class is its method; `def self.build` in class Cart is `Cart.build`.
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function
(class name: [(constant) (scope_resolution)] @name) @definition.class
(module name: [(constant) (scope_resolution)] @name) @definition.module
