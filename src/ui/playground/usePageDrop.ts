import { useEffect } from "react";

/**
 * A file dropped anywhere on the page is imported (the Import menu's zone is only the obvious
 * place); a drop a zone of its own has handled (defaultPrevented) is left to it.
 */
export function usePageDrop(onFile: (file: File) => void): void {
  useEffect(() => {
    const onDragOver = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      const file = event.dataTransfer?.files[0];
      if (!file || event.defaultPrevented) return;
      event.preventDefault();
      onFile(file);
    };
    window.addEventListener("dragover", onDragOver);
    window.addEventListener("drop", onDrop);
    return () => {
      window.removeEventListener("dragover", onDragOver);
      window.removeEventListener("drop", onDrop);
    };
  }, [onFile]);
}
