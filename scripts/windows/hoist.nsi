; Hoist's Windows installer: a per-user install that needs no administrator
; rights. It puts Hoist.exe (the window) and hoist-cli.exe (the command line)
; in %LOCALAPPDATA%\Programs\Hoist, adds a Start-menu entry, a "Send to ->
; Hoist" entry for files, and an uninstaller listed in Windows' Apps list.
;
;
; Installing over a Hoist that is open (an update) first asks it, and any
; running hoist command, to pause their uploads and close (hoist-cli.exe
; quit), replaces the programs and opens the window again if it was open.
; When a program cannot be replaced, nothing is left half done: the installer
; says so and exits with status 2, also when silent (/S). The uninstaller
; stops Hoist the same way, and fails (status 2, Hoist still listed) rather
; than leave a program behind.
;
; Built by scripts/windows/installers.sh:
;   makensis -DVERSION=1.0.0 -DSTAGE=dir-with-the-exes -DICON=hoist.ico \
;            -DOUTFILE=Hoist-1.0.0-setup.exe [-DSIGN=sign.sh] scripts/windows/hoist.nsi

; Hoist is a 64-bit program; so is its installer (which also runs under a
; 64-bit-only Wine).
Target amd64-unicode
!ifdef UNCOMPRESSED
SetCompress off ; quick to make, for tests
!else
SetCompressor /SOLID lzma
; Hoist.exe and hoist-cli.exe are nearly the same bytes: a dictionary that
; holds one whole program stores the other almost for free.
SetCompressorDictSize 64
!endif
RequestExecutionLevel user

!include "MUI2.nsh"
!include "LogicLib.nsh"

; The uninstaller is written by the installer; signing the installer signs
; it too when a signing command is given.
!ifdef SIGN
!uninstfinalize '"${SIGN}" "%1"'
!endif

!define APP "Hoist"
!define UNINSTKEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Hoist"

Name "${APP} ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${APP}"
InstallDirRegKey HKCU "Software\${APP}" "InstallDir"
ShowInstDetails show

VIProductVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "${APP}"
VIAddVersionKey "FileDescription" "${APP} installer"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "Hoist"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_FINISHPAGE_RUN "$INSTDIR\Hoist.exe"
!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "Arabic"
!insertmacro MUI_LANGUAGE "Farsi"
!insertmacro MUI_LANGUAGE "Hebrew"

LangString StillOpen ${LANG_ENGLISH} "Hoist is still open and did not close when asked. Close Hoist, then run this again."
LangString StillOpen ${LANG_ARABIC} "ما زال Hoist مفتوحًا ولم يُغلق عندما طُلب منه ذلك. أغلق Hoist، ثم شغّل هذا مرة أخرى."
LangString StillOpen ${LANG_FARSI} "Hoist هنوز باز است و وقتی از آن خواسته شد بسته نشد. Hoist را ببندید و سپس دوباره این را اجرا کنید."
LangString StillOpen ${LANG_HEBREW} "Hoist עדיין פתוח ולא נסגר כשהתבקש. סוגרים את Hoist ומריצים את זה שוב."
LangString NotReplaced ${LANG_ENGLISH} "Hoist's programs could not be replaced: another program is using them. Nothing was changed. Close it, then run this again."
LangString NotReplaced ${LANG_ARABIC} "تعذّر استبدال برامج Hoist: برنامج آخر يستخدمها. لم يتغيّر شيء. أغلقه، ثم شغّل هذا مرة أخرى."
LangString NotReplaced ${LANG_FARSI} "برنامه‌های Hoist جایگزین نشدند: برنامهٔ دیگری از آن‌ها استفاده می‌کند. چیزی تغییر نکرد. آن را ببندید و سپس دوباره این را اجرا کنید."
LangString NotReplaced ${LANG_HEBREW} "לא ניתן היה להחליף את התוכניות של Hoist: תוכנית אחרת משתמשת בהן. שום דבר לא השתנה. סוגרים אותה ומריצים את זה שוב."
LangString NotRemoved ${LANG_ENGLISH} "Hoist could not be removed completely: another program is using its files. Close it, then run the uninstaller again."
LangString NotRemoved ${LANG_ARABIC} "تعذّرت إزالة Hoist بالكامل: برنامج آخر يستخدم ملفاته. أغلقه، ثم شغّل برنامج الإزالة مرة أخرى."
LangString NotRemoved ${LANG_FARSI} "Hoist به‌طور کامل حذف نشد: برنامهٔ دیگری از فایل‌هایش استفاده می‌کند. آن را ببندید و سپس حذف‌کننده را دوباره اجرا کنید."
LangString NotRemoved ${LANG_HEBREW} "לא ניתן היה להסיר את Hoist לגמרי: תוכנית אחרת משתמשת בקבצים שלו. סוגרים אותה ומריצים שוב את הסרת ההתקנה."

; fail MESSAGE: says why (not when silent), exits with status 2.
!macro Fail message
	MessageBox MB_ICONSTOP|MB_OK "${message}" /SD IDOK
	SetErrorLevel 2
	Quit
!macroend

; StopHoist CLI ARGS: the open Hoist window and running hoist commands pause
; their uploads and close; fails when they do not.
!macro StopHoist cli args
	nsExec::ExecToLog '"${cli}" quit ${args} --wait 60s'
	Pop $0
	${If} $0 != 0
		!insertmacro Fail "$(StillOpen)"
	${EndIf}
!macroend

; Waits up to 15 seconds for FILE, if there, to be free to replace (a
; program that has just ended may hold it a moment longer).
!macro WaitFree file onfail
	StrCpy $1 0
	${Do}
		${IfNot} ${FileExists} "${file}"
			${Break}
		${EndIf}
		ClearErrors
		FileOpen $2 "${file}" a
		${IfNot} ${Errors}
			FileClose $2
			${Break}
		${EndIf}
		IntOp $1 $1 + 1
		${If} $1 > 50
			!insertmacro Fail "${onfail}"
		${EndIf}
		Sleep 300
	${Loop}
!macroend

Section "Hoist"
	SetShellVarContext current
	; The new command line asks the Hoist that is open to close for the update.
	InitPluginsDir
	File "/oname=$PLUGINSDIR\hoist-cli.exe" "${STAGE}/hoist-cli.exe"
	!insertmacro StopHoist "$PLUGINSDIR\hoist-cli.exe" "--for-update"
	!insertmacro WaitFree "$INSTDIR\Hoist.exe" "$(NotReplaced)"
	!insertmacro WaitFree "$INSTDIR\hoist-cli.exe" "$(NotReplaced)"

	SetOutPath "$INSTDIR"
	ClearErrors
	File "${STAGE}/Hoist.exe"
	File "${STAGE}/hoist-cli.exe"
	${If} ${Errors}
		!insertmacro Fail "$(NotReplaced)"
	${EndIf}
	WriteUninstaller "$INSTDIR\Uninstall Hoist.exe"

	CreateShortCut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\Hoist.exe" "" "$INSTDIR\Hoist.exe" 0
	; Explorer's "Send to" passes the chosen files to Hoist, which queues them
	; (or hands them to the Hoist window already open).
	CreateShortCut "$SENDTO\${APP}.lnk" "$INSTDIR\Hoist.exe" "" "$INSTDIR\Hoist.exe" 0

	WriteRegStr HKCU "Software\${APP}" "InstallDir" "$INSTDIR"
	WriteRegStr HKCU "${UNINSTKEY}" "DisplayName" "${APP}"
	WriteRegStr HKCU "${UNINSTKEY}" "DisplayVersion" "${VERSION}"
	WriteRegStr HKCU "${UNINSTKEY}" "Publisher" "${APP}"
	WriteRegStr HKCU "${UNINSTKEY}" "DisplayIcon" "$INSTDIR\Hoist.exe"
	WriteRegStr HKCU "${UNINSTKEY}" "InstallLocation" "$INSTDIR"
	WriteRegStr HKCU "${UNINSTKEY}" "UninstallString" '"$INSTDIR\Uninstall Hoist.exe"'
	WriteRegDWORD HKCU "${UNINSTKEY}" "NoModify" 1
	WriteRegDWORD HKCU "${UNINSTKEY}" "NoRepair" 1

	; The window an update closed opens again (it does nothing otherwise).
	Exec '"$INSTDIR\Hoist.exe" --after-update'
SectionEnd

Section "Uninstall"
	SetShellVarContext current
	${If} ${FileExists} "$INSTDIR\hoist-cli.exe"
		!insertmacro StopHoist "$INSTDIR\hoist-cli.exe" ""
	${EndIf}
	!insertmacro WaitFree "$INSTDIR\Hoist.exe" "$(NotRemoved)"
	!insertmacro WaitFree "$INSTDIR\hoist-cli.exe" "$(NotRemoved)"
	Delete "$INSTDIR\Hoist.exe"
	Delete "$INSTDIR\hoist-cli.exe"
	${If} ${FileExists} "$INSTDIR\Hoist.exe"
	${OrIf} ${FileExists} "$INSTDIR\hoist-cli.exe"
		; Hoist stays listed, so that the uninstaller can run again.
		!insertmacro Fail "$(NotRemoved)"
	${EndIf}
	Delete "$SMPROGRAMS\${APP}.lnk"
	Delete "$SENDTO\${APP}.lnk"
	Delete "$INSTDIR\Uninstall Hoist.exe"
	RMDir "$INSTDIR"
	DeleteRegKey HKCU "${UNINSTKEY}"
	DeleteRegKey HKCU "Software\${APP}"
	; The user's settings and upload list (%APPDATA%\Hoist and
	; %LOCALAPPDATA%\Hoist) are kept, as a reinstall expects them.
SectionEnd
