" ReviewPolicy: *.policy files.
autocmd BufRead,BufNewFile *.policy setfiletype policy
