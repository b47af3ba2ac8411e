from vidmem.cli import main

raise SystemExit(main())
