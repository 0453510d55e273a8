" Vim and Neovim syntax for ReviewPolicy .policy files (the TextMate grammar in
" Editors/policy.tmLanguage.json is the reference; this follows its scopes).
if exists("b:current_syntax")
  finish
endif

syntax keyword policyRule ask never when
syntax keyword policyDeclaration let fact
syntax match policyDeclaration /^\s*\zsevent\>\ze\s*[^(:= \t]/
syntax keyword policyOperatorWord and or not in has
syntax keyword policyBoolean true false
syntax keyword policyType bool int number duration instant version string contained
syntax match policyFactType /:\s*\zs\(bool\|int\|number\|duration\|instant\|version\|string\)\>/ contains=policyType
syntax match policyBuiltin /\<\(since\|min\|max\|abs\|bucket\)\ze\s*(/
syntax keyword policyNow now
syntax match policyNumber /\<\d\+\(\.\d\+\)\?\>/
syntax match policyDuration /\<\d\+[smhdw]\>/
syntax match policyVersion /\<v\d\+\(\.\d\+\)\{1,3}\>/
syntax match policyOperator /==\|!=\|<=\|>=\|<\|>\|??\|[-+*\/%?=]/
syntax match policyInvalid /&&\|||/
syntax region policyString start=/"/ skip=/\\./ end=/"\|$/ contains=policyEscape
syntax match policyEscape /\\["\\nt]/ contained
syntax match policyComment /#.*$/

highlight default link policyRule Statement
highlight default link policyDeclaration StorageClass
highlight default link policyOperatorWord Operator
highlight default link policyBoolean Boolean
highlight default link policyType Type
highlight default link policyBuiltin Function
highlight default link policyNow Constant
highlight default link policyNumber Number
highlight default link policyDuration Number
highlight default link policyVersion Number
highlight default link policyOperator Operator
highlight default link policyInvalid Error
highlight default link policyString String
highlight default link policyEscape SpecialChar
highlight default link policyComment Comment

let b:current_syntax = "policy"
